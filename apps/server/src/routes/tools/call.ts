import { toolRoutes } from '@stoa/contract';
import { runAnyTool, withConversation } from '@stoa/core';
import { projectHandler } from '../../http/handler.js';

/**
 * Executes one tool call by name (the SDK's `executeTool`, `stoa mcp --url` and plain function-calling
 * frameworks use it). Refusals are answers (200) whose text starts with "Refused:".
 */
export default projectHandler(toolRoutes.call, async (ctx, i) => {
  const c = await withConversation(ctx, { conversationId: i.conversation, processId: i.process, nodeId: i.node });
  const r = await runAnyTool(c, i.name, i.arguments, { runtime: { processId: i.process, nodeId: i.node, conversationId: i.conversation } });
  return { text: r.text, refused: r.refused, callId: r.callId, path: r.path, version: r.version, ...(r.code ? { code: r.code } : {}), ...(r.data ? { data: r.data } : {}) };
});

export { StoaClient, parseResponse, type ClientOptions } from './client.js';
export { pullMemory, prepareTurnInDir, commitTurnFromDir, MEMORY_FOLDER, type RouteCaller } from './memory.js';
export { StoaTools, executeTool, type ToolCallResult } from './tools.js';
export {
  WorkspaceFiles,
  PORTABLE_SOURCE,
  type WorkspaceScope,
  type VolumeRequest,
  type VolumeListing,
  type FileLocator,
  type PortableReference,
  type ExplicitReference,
  type RuntimeDescriptor,
  type RuntimeFileBuffer,
  type WorkspaceMediaFilesApi,
  type UnderstandingStatus,
  type UnderstandingChunkPage,
  type UnderstandingChunkHit,
  type UnderstandingReferenceCheck,
  type UnderstandingParseMode,
} from './workspace-files.js';
export { searchPages, type SearchResultsPage } from './search.js';
export { uploadInParts, type PartUploadOptions } from './part-upload.js';

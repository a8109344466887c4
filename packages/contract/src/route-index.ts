// Generated from the route table by `npm run gen:routes` (packages/contract/src/render-route-index.ts); do not edit.
import type { RouteRef } from './route-ref.js';
import type { systemRoutes } from './routes/system.js';
import type { projectRoutes } from './routes/projects.js';
import type { filesRoutes } from './routes/files.js';
import type { lockRoutes } from './routes/locks.js';
import type { trashRoutes } from './routes/trash.js';
import type { agentRoutes, conversationRoutes, toolRoutes } from './routes/agents.js';
import type { memoryRoutes, turnRoutes } from './routes/memory.js';
import type { wikiRoutes } from './routes/wiki.js';
import type { searchRoutes } from './routes/search.js';
import type { docsRoutes } from './routes/docs.js';
import type { adminRoutes } from './routes/admin.js';
import type { oauthRoutes } from './routes/oauth.js';
import type { signInRoutes } from './routes/sign-in.js';
import type { personalRoutes } from './routes/personal.js';
import type { shareRoutes } from './routes/shares.js';
import type { thumbnailRoutes } from './routes/thumbnails.js';

/**
 * Every route by area and name, for clients that must not load the schemas (the web UI).
 *
 * @example
 * const page = await call(routeIndex.wiki.get, { project: 'default', path: 'handbook' });
 */
export const routeIndex = {
  system: {
    health: { id: 'system.health', method: 'GET', path: '/health' } as RouteRef<(typeof systemRoutes)['health']>,
    limits: { id: 'system.limits', method: 'GET', path: '/limits' } as RouteRef<(typeof systemRoutes)['limits']>,
    openapi: { id: 'system.openapi', method: 'GET', path: '/openapi.json' } as RouteRef<(typeof systemRoutes)['openapi']>,
    login: { id: 'auth.login', method: 'POST', path: '/auth/login' } as RouteRef<(typeof systemRoutes)['login']>,
    logout: { id: 'auth.logout', method: 'POST', path: '/auth/logout' } as RouteRef<(typeof systemRoutes)['logout']>,
    signedFile: { id: 'files.signed', method: 'GET', path: '/files/signed/{token}' } as RouteRef<(typeof systemRoutes)['signedFile']>,
  },
  projects: {
    me: { id: 'auth.me', method: 'GET', path: '/me' } as RouteRef<(typeof projectRoutes)['me']>,
    listProjects: { id: 'projects.list', method: 'GET', path: '/projects' } as RouteRef<(typeof projectRoutes)['listProjects']>,
    createProject: { id: 'projects.create', method: 'POST', path: '/projects' } as RouteRef<(typeof projectRoutes)['createProject']>,
    openVolume: { id: 'volumes.open', method: 'POST', path: '/volumes' } as RouteRef<(typeof projectRoutes)['openVolume']>,
    getVolume: { id: 'volumes.get', method: 'GET', path: '/volumes/{volume}' } as RouteRef<(typeof projectRoutes)['getVolume']>,
    listVolumes: { id: 'volumes.list', method: 'GET', path: '/projects/{project}/volumes' } as RouteRef<(typeof projectRoutes)['listVolumes']>,
    deleteVolume: { id: 'volumes.delete', method: 'DELETE', path: '/volumes/{volume}' } as RouteRef<(typeof projectRoutes)['deleteVolume']>,
    deleteProject: { id: 'projects.delete', method: 'DELETE', path: '/projects/{project}' } as RouteRef<(typeof projectRoutes)['deleteProject']>,
    listMembers: { id: 'members.list', method: 'GET', path: '/projects/{project}/members' } as RouteRef<(typeof projectRoutes)['listMembers']>,
    addMember: { id: 'members.add', method: 'POST', path: '/projects/{project}/members' } as RouteRef<(typeof projectRoutes)['addMember']>,
    removeMember: { id: 'members.remove', method: 'DELETE', path: '/projects/{project}/members/{user}' } as RouteRef<(typeof projectRoutes)['removeMember']>,
    createToken: { id: 'tokens.create', method: 'POST', path: '/projects/{project}/tokens' } as RouteRef<(typeof projectRoutes)['createToken']>,
    revokeToken: { id: 'tokens.revoke', method: 'DELETE', path: '/projects/{project}/tokens/{id}' } as RouteRef<(typeof projectRoutes)['revokeToken']>,
    listTokens: { id: 'tokens.list', method: 'GET', path: '/projects/{project}/tokens' } as RouteRef<(typeof projectRoutes)['listTokens']>,
    createInvitation: { id: 'invitations.create', method: 'POST', path: '/projects/{project}/invitations' } as RouteRef<(typeof projectRoutes)['createInvitation']>,
    acceptInvitation: { id: 'invitations.accept', method: 'POST', path: '/invitations/accept' } as RouteRef<(typeof projectRoutes)['acceptInvitation']>,
    audit: { id: 'audit.list', method: 'GET', path: '/projects/{project}/audit' } as RouteRef<(typeof projectRoutes)['audit']>,
  },
  files: {
    list: { id: 'files.list', method: 'GET', path: '/projects/{project}/files' } as RouteRef<(typeof filesRoutes)['list']>,
    folder: { id: 'files.folder', method: 'GET', path: '/projects/{project}/folders' } as RouteRef<(typeof filesRoutes)['folder']>,
    changes: { id: 'files.changes', method: 'GET', path: '/projects/{project}/changes' } as RouteRef<(typeof filesRoutes)['changes']>,
    tree: { id: 'files.tree', method: 'GET', path: '/projects/{project}/folders/tree' } as RouteRef<(typeof filesRoutes)['tree']>,
    statFolder: { id: 'folders.stat', method: 'GET', path: '/projects/{project}/folders/stat' } as RouteRef<(typeof filesRoutes)['statFolder']>,
    createFolder: { id: 'folders.create', method: 'POST', path: '/projects/{project}/folders' } as RouteRef<(typeof filesRoutes)['createFolder']>,
    moveFolder: { id: 'folders.move', method: 'POST', path: '/projects/{project}/folders/move' } as RouteRef<(typeof filesRoutes)['moveFolder']>,
    deleteFolder: { id: 'folders.delete', method: 'DELETE', path: '/projects/{project}/folders' } as RouteRef<(typeof filesRoutes)['deleteFolder']>,
    find: { id: 'files.find', method: 'GET', path: '/projects/{project}/files/find' } as RouteRef<(typeof filesRoutes)['find']>,
    stat: { id: 'files.stat', method: 'GET', path: '/projects/{project}/files/stat' } as RouteRef<(typeof filesRoutes)['stat']>,
    move: { id: 'files.move', method: 'POST', path: '/projects/{project}/files/move' } as RouteRef<(typeof filesRoutes)['move']>,
    remove: { id: 'files.delete', method: 'DELETE', path: '/projects/{project}/files' } as RouteRef<(typeof filesRoutes)['remove']>,
    usage: { id: 'files.usage', method: 'GET', path: '/projects/{project}/usage' } as RouteRef<(typeof filesRoutes)['usage']>,
    versions: { id: 'files.versions', method: 'GET', path: '/projects/{project}/files/versions' } as RouteRef<(typeof filesRoutes)['versions']>,
    restore: { id: 'files.restore', method: 'POST', path: '/projects/{project}/files/restore' } as RouteRef<(typeof filesRoutes)['restore']>,
    upload: { id: 'files.upload', method: 'PUT', path: '/projects/{project}/files/content', rawRequest: true } as RouteRef<(typeof filesRoutes)['upload']>,
    uploadForm: { id: 'files.uploadForm', method: 'POST', path: '/projects/{project}/files/upload', rawRequest: true } as RouteRef<(typeof filesRoutes)['uploadForm']>,
    download: { id: 'files.download', method: 'GET', path: '/projects/{project}/files/content' } as RouteRef<(typeof filesRoutes)['download']>,
    archive: { id: 'files.archive', method: 'POST', path: '/projects/{project}/files/archive' } as RouteRef<(typeof filesRoutes)['archive']>,
    resolve: { id: 'files.resolve', method: 'GET', path: '/projects/{project}/files/resolve' } as RouteRef<(typeof filesRoutes)['resolve']>,
    preview: { id: 'files.preview', method: 'GET', path: '/projects/{project}/files/preview' } as RouteRef<(typeof filesRoutes)['preview']>,
    startUpload: { id: 'uploads.start', method: 'POST', path: '/projects/{project}/uploads' } as RouteRef<(typeof filesRoutes)['startUpload']>,
    uploadStatus: { id: 'uploads.status', method: 'GET', path: '/projects/{project}/uploads/{uploadId}' } as RouteRef<(typeof filesRoutes)['uploadStatus']>,
    uploadParts: { id: 'uploads.parts', method: 'POST', path: '/projects/{project}/uploads/{uploadId}/parts' } as RouteRef<(typeof filesRoutes)['uploadParts']>,
    sendUploadPart: { id: 'uploads.sendPart', method: 'PUT', path: '/projects/{project}/uploads/{uploadId}/parts/{partNumber}', rawRequest: true } as RouteRef<(typeof filesRoutes)['sendUploadPart']>,
    partSent: { id: 'uploads.partSent', method: 'POST', path: '/projects/{project}/uploads/{uploadId}/parts/{partNumber}' } as RouteRef<(typeof filesRoutes)['partSent']>,
    sendUpload: { id: 'uploads.send', method: 'PUT', path: '/projects/{project}/uploads/{uploadId}', rawRequest: true } as RouteRef<(typeof filesRoutes)['sendUpload']>,
    finishUpload: { id: 'uploads.finish', method: 'POST', path: '/projects/{project}/uploads/{uploadId}/finish' } as RouteRef<(typeof filesRoutes)['finishUpload']>,
    abortUpload: { id: 'uploads.abort', method: 'DELETE', path: '/projects/{project}/uploads/{uploadId}' } as RouteRef<(typeof filesRoutes)['abortUpload']>,
  },
  locks: {
    list: { id: 'locks.list', method: 'GET', path: '/projects/{project}/locks' } as RouteRef<(typeof lockRoutes)['list']>,
    release: { id: 'locks.release', method: 'DELETE', path: '/projects/{project}/locks' } as RouteRef<(typeof lockRoutes)['release']>,
  },
  trash: {
    list: { id: 'trash.list', method: 'GET', path: '/projects/{project}/trash' } as RouteRef<(typeof trashRoutes)['list']>,
    restore: { id: 'trash.restore', method: 'POST', path: '/projects/{project}/trash/{id}/restore' } as RouteRef<(typeof trashRoutes)['restore']>,
    purge: { id: 'trash.purge', method: 'DELETE', path: '/projects/{project}/trash/{id}' } as RouteRef<(typeof trashRoutes)['purge']>,
  },
  agents: {
    create: { id: 'agents.create', method: 'POST', path: '/projects/{project}/agents' } as RouteRef<(typeof agentRoutes)['create']>,
    list: { id: 'agents.list', method: 'GET', path: '/projects/{project}/agents' } as RouteRef<(typeof agentRoutes)['list']>,
    show: { id: 'agents.show', method: 'GET', path: '/projects/{project}/agents/{id}' } as RouteRef<(typeof agentRoutes)['show']>,
    update: { id: 'agents.update', method: 'PATCH', path: '/projects/{project}/agents/{id}' } as RouteRef<(typeof agentRoutes)['update']>,
    copy: { id: 'agents.copy', method: 'POST', path: '/projects/{project}/agents/{id}/copy' } as RouteRef<(typeof agentRoutes)['copy']>,
    remove: { id: 'agents.delete', method: 'DELETE', path: '/projects/{project}/agents/{id}' } as RouteRef<(typeof agentRoutes)['remove']>,
    reassign: { id: 'agents.reassign', method: 'POST', path: '/projects/{project}/agents/{id}/reassign' } as RouteRef<(typeof agentRoutes)['reassign']>,
    publish: { id: 'agents.publish', method: 'POST', path: '/projects/{project}/agents/{id}/publish' } as RouteRef<(typeof agentRoutes)['publish']>,
  },
  conversations: {
    create: { id: 'conversations.create', method: 'POST', path: '/projects/{project}/conversations' } as RouteRef<(typeof conversationRoutes)['create']>,
    list: { id: 'conversations.list', method: 'GET', path: '/projects/{project}/conversations' } as RouteRef<(typeof conversationRoutes)['list']>,
    trace: { id: 'conversations.trace', method: 'GET', path: '/projects/{project}/conversations/{id}/trace' } as RouteRef<(typeof conversationRoutes)['trace']>,
    changes: { id: 'conversations.changes', method: 'GET', path: '/projects/{project}/conversations/{id}/changes' } as RouteRef<(typeof conversationRoutes)['changes']>,
    revert: { id: 'conversations.revert', method: 'POST', path: '/projects/{project}/conversations/{id}/revert' } as RouteRef<(typeof conversationRoutes)['revert']>,
  },
  tools: {
    list: { id: 'tools.list', method: 'GET', path: '/projects/{project}/tools' } as RouteRef<(typeof toolRoutes)['list']>,
    call: { id: 'tools.call', method: 'POST', path: '/projects/{project}/tools/{name}/call' } as RouteRef<(typeof toolRoutes)['call']>,
  },
  memory: {
    list: { id: 'memory.list', method: 'GET', path: '/projects/{project}/memory' } as RouteRef<(typeof memoryRoutes)['list']>,
    get: { id: 'memory.get', method: 'GET', path: '/projects/{project}/memory/file' } as RouteRef<(typeof memoryRoutes)['get']>,
    set: { id: 'memory.set', method: 'PUT', path: '/projects/{project}/memory/file' } as RouteRef<(typeof memoryRoutes)['set']>,
    append: { id: 'memory.append', method: 'POST', path: '/projects/{project}/memory/append' } as RouteRef<(typeof memoryRoutes)['append']>,
    history: { id: 'memory.history', method: 'GET', path: '/projects/{project}/memory/history' } as RouteRef<(typeof memoryRoutes)['history']>,
    show: { id: 'memory.show', method: 'GET', path: '/projects/{project}/memory/version' } as RouteRef<(typeof memoryRoutes)['show']>,
    restore: { id: 'memory.restore', method: 'POST', path: '/projects/{project}/memory/restore' } as RouteRef<(typeof memoryRoutes)['restore']>,
    search: { id: 'memory.search', method: 'GET', path: '/projects/{project}/memory/search' } as RouteRef<(typeof memoryRoutes)['search']>,
    bundle: { id: 'memory.bundle', method: 'GET', path: '/projects/{project}/memory/bundle' } as RouteRef<(typeof memoryRoutes)['bundle']>,
  },
  turn: {
    prepare: { id: 'turn.prepare', method: 'POST', path: '/projects/{project}/turns/prepare' } as RouteRef<(typeof turnRoutes)['prepare']>,
    commit: { id: 'turn.commit', method: 'POST', path: '/projects/{project}/turns/commit' } as RouteRef<(typeof turnRoutes)['commit']>,
  },
  wiki: {
    list: { id: 'wiki.list', method: 'GET', path: '/projects/{project}/wiki/pages' } as RouteRef<(typeof wikiRoutes)['list']>,
    get: { id: 'wiki.get', method: 'GET', path: '/projects/{project}/wiki/page' } as RouteRef<(typeof wikiRoutes)['get']>,
    put: { id: 'wiki.put', method: 'PUT', path: '/projects/{project}/wiki/page' } as RouteRef<(typeof wikiRoutes)['put']>,
    rename: { id: 'wiki.rename', method: 'POST', path: '/projects/{project}/wiki/rename' } as RouteRef<(typeof wikiRoutes)['rename']>,
    move: { id: 'wiki.move', method: 'POST', path: '/projects/{project}/wiki/move' } as RouteRef<(typeof wikiRoutes)['move']>,
    remove: { id: 'wiki.delete', method: 'DELETE', path: '/projects/{project}/wiki/page' } as RouteRef<(typeof wikiRoutes)['remove']>,
    history: { id: 'wiki.history', method: 'GET', path: '/projects/{project}/wiki/history' } as RouteRef<(typeof wikiRoutes)['history']>,
    version: { id: 'wiki.version', method: 'GET', path: '/projects/{project}/wiki/version' } as RouteRef<(typeof wikiRoutes)['version']>,
    diff: { id: 'wiki.diff', method: 'GET', path: '/projects/{project}/wiki/diff' } as RouteRef<(typeof wikiRoutes)['diff']>,
    search: { id: 'wiki.search', method: 'GET', path: '/projects/{project}/wiki/search' } as RouteRef<(typeof wikiRoutes)['search']>,
    import: { id: 'wiki.import', method: 'POST', path: '/projects/{project}/wiki/import' } as RouteRef<(typeof wikiRoutes)['import']>,
  },
  search: {
    all: { id: 'search.all', method: 'GET', path: '/projects/{project}/search' } as RouteRef<(typeof searchRoutes)['all']>,
    results: { id: 'search.results', method: 'GET', path: '/projects/{project}/search/results' } as RouteRef<(typeof searchRoutes)['results']>,
    reindex: { id: 'search.reindex', method: 'POST', path: '/projects/{project}/search/reindex' } as RouteRef<(typeof searchRoutes)['reindex']>,
  },
  docs: {
    understand: { id: 'docs.understand', method: 'POST', path: '/projects/{project}/docs/understand' } as RouteRef<(typeof docsRoutes)['understand']>,
    status: { id: 'docs.status', method: 'GET', path: '/projects/{project}/docs/status' } as RouteRef<(typeof docsRoutes)['status']>,
    retry: { id: 'docs.retry', method: 'POST', path: '/projects/{project}/docs/retry' } as RouteRef<(typeof docsRoutes)['retry']>,
    chunks: { id: 'docs.chunks', method: 'GET', path: '/projects/{project}/docs/chunks' } as RouteRef<(typeof docsRoutes)['chunks']>,
    search: { id: 'docs.search', method: 'GET', path: '/projects/{project}/docs/search' } as RouteRef<(typeof docsRoutes)['search']>,
    validate: { id: 'docs.validate', method: 'POST', path: '/projects/{project}/docs/validate' } as RouteRef<(typeof docsRoutes)['validate']>,
  },
  admin: {
    doctor: { id: 'admin.doctor', method: 'POST', path: '/admin/doctor' } as RouteRef<(typeof adminRoutes)['doctor']>,
    audit: { id: 'admin.audit', method: 'GET', path: '/admin/audit' } as RouteRef<(typeof adminRoutes)['audit']>,
    loginLink: { id: 'admin.loginLink', method: 'POST', path: '/admin/login-link' } as RouteRef<(typeof adminRoutes)['loginLink']>,
    createToken: { id: 'admin.createToken', method: 'POST', path: '/admin/tokens' } as RouteRef<(typeof adminRoutes)['createToken']>,
  },
  oauth: {
    client: { id: 'oauth.client', method: 'GET', path: '/oauth/clients/{client}' } as RouteRef<(typeof oauthRoutes)['client']>,
    approve: { id: 'oauth.approve', method: 'POST', path: '/projects/{project}/oauth/grants' } as RouteRef<(typeof oauthRoutes)['approve']>,
    listGrants: { id: 'oauth.grants.list', method: 'GET', path: '/projects/{project}/oauth/grants' } as RouteRef<(typeof oauthRoutes)['listGrants']>,
    revokeGrant: { id: 'oauth.grants.revoke', method: 'DELETE', path: '/projects/{project}/oauth/grants/{id}' } as RouteRef<(typeof oauthRoutes)['revokeGrant']>,
  },
  signIn: {
    password: { id: 'signin.password', method: 'POST', path: '/auth/password' } as RouteRef<(typeof signInRoutes)['password']>,
    account: { id: 'account.get', method: 'GET', path: '/account' } as RouteRef<(typeof signInRoutes)['account']>,
    changePassword: { id: 'account.password', method: 'POST', path: '/account/password' } as RouteRef<(typeof signInRoutes)['changePassword']>,
    passkeyOptions: { id: 'signin.passkeyOptions', method: 'POST', path: '/auth/passkey/options' } as RouteRef<(typeof signInRoutes)['passkeyOptions']>,
    passkey: { id: 'signin.passkey', method: 'POST', path: '/auth/passkey' } as RouteRef<(typeof signInRoutes)['passkey']>,
    passkeyRegistrationOptions: { id: 'account.passkeyOptions', method: 'POST', path: '/account/passkeys/options' } as RouteRef<(typeof signInRoutes)['passkeyRegistrationOptions']>,
    addPasskey: { id: 'account.addPasskey', method: 'POST', path: '/account/passkeys' } as RouteRef<(typeof signInRoutes)['addPasskey']>,
    removePasskey: { id: 'account.removePasskey', method: 'DELETE', path: '/account/passkeys/{id}' } as RouteRef<(typeof signInRoutes)['removePasskey']>,
    methods: { id: 'signin.methods', method: 'GET', path: '/auth/methods' } as RouteRef<(typeof signInRoutes)['methods']>,
    oidcStart: { id: 'signin.oidcStart', method: 'GET', path: '/auth/oidc/start' } as RouteRef<(typeof signInRoutes)['oidcStart']>,
    oidcCallback: { id: 'signin.oidcCallback', method: 'GET', path: '/auth/oidc/callback' } as RouteRef<(typeof signInRoutes)['oidcCallback']>,
  },
  personal: {
    favourites: { id: 'favourites.list', method: 'GET', path: '/projects/{project}/favourites' } as RouteRef<(typeof personalRoutes)['favourites']>,
    star: { id: 'favourites.add', method: 'PUT', path: '/projects/{project}/favourites' } as RouteRef<(typeof personalRoutes)['star']>,
    unstar: { id: 'favourites.remove', method: 'DELETE', path: '/projects/{project}/favourites' } as RouteRef<(typeof personalRoutes)['unstar']>,
    recent: { id: 'recent.list', method: 'GET', path: '/projects/{project}/recent' } as RouteRef<(typeof personalRoutes)['recent']>,
    opened: { id: 'recent.record', method: 'POST', path: '/projects/{project}/recent' } as RouteRef<(typeof personalRoutes)['opened']>,
  },
  shares: {
    create: { id: 'files.shareLinks.create', method: 'POST', path: '/projects/{project}/share-links' } as RouteRef<(typeof shareRoutes)['create']>,
    list: { id: 'files.shareLinks.list', method: 'GET', path: '/projects/{project}/share-links' } as RouteRef<(typeof shareRoutes)['list']>,
    revoke: { id: 'files.shareLinks.revoke', method: 'DELETE', path: '/projects/{project}/share-links/{id}' } as RouteRef<(typeof shareRoutes)['revoke']>,
    open: { id: 'files.shareLinks.open', method: 'GET', path: '/share-links/{token}' } as RouteRef<(typeof shareRoutes)['open']>,
  },
  thumbnails: {
    get: { id: 'files.thumbnail', method: 'GET', path: '/projects/{project}/files/thumbnail' } as RouteRef<(typeof thumbnailRoutes)['get']>,
  },
};

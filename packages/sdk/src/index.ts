export { StoaClient, parseResponse, type ClientOptions } from './client.js';

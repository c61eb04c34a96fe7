import { fetchTool } from './fetch.js';
import { fetchMany } from './fetch-many.js';

export const tools = [fetchTool, fetchMany];

import { fetchTool } from './fetch.js';
import { fetchMany } from './fetch-many.js';
import { fetchContinue } from './fetch-continue.js';

export const tools = [fetchTool, fetchMany, fetchContinue];

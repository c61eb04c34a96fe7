import { fetchPrompt } from './fetch.js';

export const prompts = [fetchPrompt];

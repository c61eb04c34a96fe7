import { summarizeNote } from './summarize-note.js';

export const prompts = [summarizeNote];

import { noteTemplate } from './note.js';

export const templates = [noteTemplate];

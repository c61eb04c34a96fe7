import { fileTemplate } from './file.js';

export const templates = [fileTemplate];

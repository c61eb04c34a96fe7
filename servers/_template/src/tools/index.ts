import { addNote } from './add-note.js';
import { searchNotesTool } from './search-notes.js';

export const readTools = [searchNotesTool];
export const writeTools = [addNote];

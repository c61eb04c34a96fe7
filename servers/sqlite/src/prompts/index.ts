import { mcpDemo } from './mcp-demo.js';
import { exploreTable } from './explore-table.js';
import { answerQuestion } from './answer-question.js';
import { explainPlan } from './explain-plan.js';

export const prompts = [mcpDemo, exploreTable, answerQuestion, explainPlan];

import type { ServerDescription } from './describe.js';

const cell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/**
 * The README's tool / resource / prompt tables, generated from the definitions so the
 * docs cannot drift from the code (each server has a test that compares them).
 */
export function renderDocsTable(description: ServerDescription): string {
  const lines: string[] = ['### Tools', '', '| Tool | Arguments | Description |', '| --- | --- | --- |'];
  for (const tool of description.tools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
    const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
    const args = Object.keys(properties)
      .map((name) => (required.has(name) ? `\`${name}\`` : `\`${name}?\``))
      .join(', ');
    lines.push(`| \`${tool.name}\` | ${args || '–'} | ${cell(tool.description)} |`);
  }
  lines.push('', '### Resources', '', '| URI or template | Name | Description |', '| --- | --- | --- |');
  for (const resource of description.resources) {
    lines.push(`| \`${resource.uri}\` | ${cell(resource.name)} | ${cell(resource.description)} |`);
  }
  for (const template of description.templates) {
    lines.push(`| \`${template.uriTemplate}\` | ${cell(template.name)} | ${cell(template.description)} |`);
  }
  lines.push('', '### Prompts', '', '| Prompt | Arguments | Description |', '| --- | --- | --- |');
  for (const prompt of description.prompts) {
    const args = prompt.arguments.map((a) => (a.required ? `\`${a.name}\`` : `\`${a.name}?\``)).join(', ');
    lines.push(`| \`${prompt.name}\` | ${args || '–'} | ${cell(prompt.description)} |`);
  }
  return `${lines.join('\n')}\n`;
}

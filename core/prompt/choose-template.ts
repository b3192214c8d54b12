/**
 * Which template a role renders with (seed 000 Task 5's _get_template_for_role): the role's own
 * `template`, else the one for its name, else the one for its base_role (so overlays at any
 * depth use their root's), else none: the legacy plain prompt.
 */
import type { Role } from '../roles/role.ts';

/** Built-in base roles and their templates. */
const ROLE_TEMPLATES: Readonly<Record<string, string>> = Object.freeze({
  planner: 'planning',
  implementer: 'implement',
  reviewer: 'review_strict',
});

export function chooseTemplate(role: Pick<Role, 'name' | 'base_role' | 'template'>): string | null {
  if (role.template) return role.template;
  if (Object.hasOwn(ROLE_TEMPLATES, role.name)) return ROLE_TEMPLATES[role.name]!;
  if (role.base_role && Object.hasOwn(ROLE_TEMPLATES, role.base_role)) return ROLE_TEMPLATES[role.base_role]!;
  return null;
}

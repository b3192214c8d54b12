// The parser contract: model text → validated object. (Not a doc comment: it would attach to ParserContext.)

export interface ParserContext {
  /** The output schema's name (e.g. "review", "generic"). */
  schemaName: string;
  /** The JSON Schema to validate against. */
  schema: Readonly<Record<string, unknown>>;
  /**
   * Validates a value against the schema, applies defaults, and returns it; throws an
   * OUTPUT_INVALID SupervisorError listing every violation with its JSON pointer.
   */
  validate(value: unknown): Record<string, unknown>;
  /** The role being parsed for, when known. */
  role?: { name: string; baseRole: string | null };
  /** The role (or a flag) asks for the legacy free-text grammar to be recognised too. */
  legacy: boolean;
  /**
   * For formatInstructions: the prompt already shows the output schema's fields and an example
   * (a template's output-schema section), so the instructions need not repeat them.
   */
  schemaInPrompt?: boolean;
}

export interface ParserHooks {
  /**
   * Returns the validated object. Throws PARSE_NO_JSON / PARSE_INVALID_JSON /
   * PARSE_UNRECOGNISED when nothing usable is found, OUTPUT_INVALID on schema violations.
   */
  parse(text: string, ctx: ParserContext): Record<string, unknown>;
  /**
   * Optional: the exact answer format, in words and with an example, for the model. Templates
   * show it as `it.outputFormat` (the Output Requirements of `_base`), and the engine appends it
   * to the prompt when it retries after an unusable answer. Without it the model is told that
   * the answer is read by this parser in the format its instructions define.
   */
  formatInstructions?(ctx: ParserContext): string;
  /**
   * Optional: one complete answer this parser accepts for the role in `ctx.role` (a calm
   * "done, nothing found" answer). The replay adapter answers with it offline; without it,
   * replay builds a fenced JSON example from the output schema.
   */
  exampleAnswer?(ctx: ParserContext): string;
  /**
   * Optional: the name of the built-in output schema answers for this parser are validated
   * against when `supervisor parse --parser <name>` names no role and no --schema. Default: generic.
   */
  defaultSchema?: string;
}

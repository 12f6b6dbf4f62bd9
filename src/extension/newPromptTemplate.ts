/** The commented starting point "CodeWiki: New Action Prompt" writes; it validates as is. */
export const NEW_PROMPT_TEMPLATE = `# An action prompt: inputs → a chain of tool steps → one streamed answer.
# Format and examples: docs/action-prompts.md. Run it from the chat with /agent.
title: My action prompt
description: What it does, in one sentence.

# The form the user fills in. Types: text, multiline, path, number, boolean, select (with options).
input_variables:
  - name: folder
    description: The folder to look at
    type: path
  - name: question
    description: What you want to know
    type: multiline
    default: How is this code organised?

# Steps run as soon as the variables they reference exist; {name} reads an input or an output.
tool_chain:
  - id: outline
    title: Summarise the files
    tool: get_file_summaries
    input: "{folder}"
    output_variable: summaries

  - id: pick
    title: Pick the relevant files (tool model)
    tool: file_selector_llm_tool
    input:
      file_summaries: "{summaries}"
      task_description: "{question}"
    output_variable: picked

  - id: read
    title: Read them
    tool: get_files_content_by_list
    input: "{picked}"
    output_variable: contents

# The final prompt; its answer streams into the chat.
llm_prompt_template:
  system: You are a senior engineer who explains code precisely.
  human: |
    {question}

    {contents}
`;

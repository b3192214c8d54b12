// The offline example's project: `workflow run scripts/examples/offline/workflow.yaml --cli replay` changes it on a branch of its own.
export const add = (a, b) => a + b;

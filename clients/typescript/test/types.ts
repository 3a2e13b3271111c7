// Compiles only while the client's types agree with the OpenAPI document (`npm run typecheck`).
import { createHindsight, HindsightError, type RecallResponse } from "../src/index.js";

const api = createHindsight({ baseUrl: "http://127.0.0.1:8000", apiKey: "hs_…" });

export async function loop(): Promise<string[]> {
  await api.store([{ user_id: "alice", type: "constraint", value: "Alice is allergic to peanuts" }]);
  const found: RecallResponse = await api.recall({ query: "what can't Alice eat?", user_id: "alice", top_k: 3 });
  const window = await api.window("trip-1", { query: "snacks", max_tokens: 2000 });
  const raw = await api.raw.GET("/memories/{memory_id}", { params: { path: { memory_id: found.memories[0].id } } });
  try {
    await api.getMemory("missing");
  } catch (error) {
    if (error instanceof HindsightError && error.code === "not_found") return [];
  }
  return [...found.memories.map((hit) => hit.value), ...window.messages.map((m) => m.content), raw.data?.value ?? ""];
}

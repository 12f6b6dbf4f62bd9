import { authoringEnvironmentOf, type AuthoringEnvironment } from '../../core/authoring';
import type { CodewikiEngine } from '../../core/codewikiEngine';
import type { EngineState, WorkspaceEngine } from '../workspaceEngine';

/**
 * The tools and prompts the editor completes and checks against, taken from the workspace's
 * engine (so from the same catalog a run uses) and rebuilt with it. None in Restricted Mode:
 * there the engine is not built, and the editor offers field names only.
 */
export class AuthoringEnvironmentSource {
  private cached: { engine: CodewikiEngine; env: AuthoringEnvironment } | undefined;

  constructor(private readonly engine: WorkspaceEngine) {}

  async get(): Promise<AuthoringEnvironment | undefined> {
    return (await this.state()).env;
  }

  async state(): Promise<EngineState & { env?: AuthoringEnvironment }> {
    const state = await this.engine.get();
    if (!state.engine) return state;
    if (this.cached?.engine !== state.engine) this.cached = { engine: state.engine, env: authoringEnvironmentOf(state.engine) };
    return { ...state, env: this.cached.env };
  }
}

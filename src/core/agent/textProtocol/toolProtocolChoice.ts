import type { AgentEventBody } from '../agentEvents';
import { ToolProtocolMemory } from './toolProtocolMemory';
import type { ToolProtocol, ToolProtocolSetting } from './toolProtocol';

/**
 * The protocol one run uses, and `auto`'s switch to text. The switch is announced (a
 * `protocol-switch` event the chat shows as a notice and the CLI prints) and remembered per model
 * and endpoint, so the rest of the conversation, and later ones, start with text.
 */
export class ToolProtocolChoice {
  private constructor(
    readonly setting: ToolProtocolSetting,
    private current: ToolProtocol,
    private readonly memory: ToolProtocolMemory | undefined,
    private readonly key: string,
    private readonly emit: (event: AgentEventBody) => void,
  ) {}

  static async start(options: {
    setting: ToolProtocolSetting;
    canBindTools: boolean;
    memory?: ToolProtocolMemory;
    modelName: string;
    endpoint?: string;
    emit(event: AgentEventBody): void;
  }): Promise<ToolProtocolChoice> {
    const key = ToolProtocolMemory.key(options.modelName, options.endpoint);
    let current: ToolProtocol = options.setting === 'text' ? 'text' : 'native';
    if (options.setting === 'auto') {
      const remembered = await options.memory?.get(key).catch(() => undefined);
      if (remembered?.protocol === 'text' || !options.canBindTools) current = 'text';
    }
    return new ToolProtocolChoice(options.setting, current, options.memory, key, options.emit);
  }

  get active(): ToolProtocol {
    return this.current;
  }

  get isText(): boolean {
    return this.current === 'text';
  }

  /** True when `auto` may still move from native to text. */
  get canSwitch(): boolean {
    return this.setting === 'auto' && this.current === 'native';
  }

  async switchToText(reason: string): Promise<void> {
    if (!this.canSwitch) return;
    this.current = 'text';
    this.emit({ type: 'protocol-switch', from: 'native', to: 'text', reason });
    await this.memory?.remember(this.key, { protocol: 'text', reason, at: new Date().toISOString() }).catch(() => {});
  }
}

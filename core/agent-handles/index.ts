export {
  rememberAgentJob,
  resolveAgentJob,
  type AgentJob,
  type AgentJobRef,
  type AgentScope,
} from './agent-handles.ts';

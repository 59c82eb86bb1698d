package io.squall.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages of docs/agent-protocol.md, one record each. Component names become the
 * protocol's snake_case keys through {@link Json#MAPPER}; the doc is the contract, these records
 * only spell it.
 */
final class Protocol {
  private Protocol() {}

  /** {@code POST /v1/agent/register}. */
  record Registration(String name, String address, int gpus, String gpuType, int cpus, long memoryMb,
      List<String> features, String placementGroup, List<String> running) {}

  /** {@code POST /v1/agent/heartbeat}. */
  record Heartbeat(String name, String address, List<String> running) {}

  /** One exit of a batch script; {@code id} stays the same across resends. */
  record ExitEvent(String id, String job, String type, int exitCode, Integer signal, String time) {}

  /** {@code POST /v1/agent/events}. */
  record EventBatch(String name, List<ExitEvent> events) {}

  /** {@code POST /v1/agent/output}; {@code offset} counts bytes of the output file. */
  record OutputChunk(String job, String stream, long offset, String data) {}

  /**
   * {@code POST /v1/agent/interruptions}: one notice of the node's metadata service. {@code
   * source} and {@code kind} are {@link io.squall.core.spot.Interruption}'s enum names; times are
   * ISO-8601 instants.
   */
  record InterruptionNotice(String name, String source, String kind, String instanceId, String noticedAt,
      String deadline, String detail) {}

  /**
   * {@code POST /v1/agent/checkpoints}: a job's {@code squall checkpoint register}, relayed by
   * the node it runs on. {@code path} is absolute (or a URL such as {@code s3://..}).
   */
  record CheckpointRegistration(String name, String job, long step, String path) {}

  /**
   * {@code POST /jobs/{job}/checkpoints}, from the job's {@code squall} tool; a null step is
   * one the tool did not send (refused).
   */
  record CheckpointRequest(Long step, String path) {}

  /**
   * {@code POST /jobs}. Absent collections read as empty. {@code args} are the batch script's own
   * arguments ({@code sbatch script.sh a b}). {@code run} is which run of the job this is (its
   * restart count; absent: 0): a run the controller deleted here is never launched after.
   */
  record JobSpec(String job, String credential, boolean batch, String script, List<String> args,
      String workDir, Map<String, String> environment, List<Integer> gpus, String stdout,
      String stderr, String stdin, String openMode, Map<String, String> nodes, RunAs runAs, int run) {
    JobSpec {
      args = args == null ? List.of() : List.copyOf(args);
      environment = withoutNulls(environment);
      gpus = gpus == null ? List.of() : List.copyOf(gpus);
      nodes = withoutNulls(nodes);
    }

    boolean append() {
      return "append".equalsIgnoreCase(openMode);
    }
  }

  /**
   * Whose job it is on this node: an OS user by name (resolved here, with its groups), or a
   * numeric uid and gid. An agent running as root runs the job's processes as that user; any
   * other agent runs them as itself. Absent: the agent's own user.
   */
  record RunAs(String user, Integer uid, Integer gid) {}

  /**
   * {@code POST /jobs/{job}/signal}. {@code batchOnly} (absent: false) is Slurm's {@code
   * --signal=B:}: the batch script's shell alone gets the signal.
   */
  record SignalRequest(String signal, int killWaitSeconds, boolean batchOnly) {}

  /** {@code POST /jobs/{job}/tasks}: one step's tasks on one node. */
  record TaskRequest(int step, int nodeid, List<String> argv, Map<String, String> environment,
      String workDir, List<TaskSlot> tasks, int ntasks, String nodelist) {
    TaskRequest {
      argv = argv == null ? List.of() : List.copyOf(argv);
      environment = withoutNulls(environment);
      tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }
  }

  /** One task of a step: its rank in the step and on this node. */
  record TaskSlot(int procid, int localid) {}

  /** {@code POST /jobs/{job}/tasks/signal}; a null step means every step of the job. */
  record TaskSignal(Integer step, String signal) {}

  /** A streamed line of a task's output; {@code data} keeps its newline, if it had one. */
  record TaskOutput(int procid, String stream, String data) {}

  /** The last streamed line of a task. */
  record TaskExit(int procid, int exitCode, Integer signal) {}

  /** Order kept (the {@code nodes} map lists the allocation in order); null values dropped. */
  private static Map<String, String> withoutNulls(Map<String, String> map) {
    Map<String, String> copy = new LinkedHashMap<>();
    if (map != null) {
      map.forEach((k, v) -> {
        if (k != null && v != null) {
          copy.put(k, v);
        }
      });
    }
    return Collections.unmodifiableMap(copy);
  }
}

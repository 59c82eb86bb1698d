package io.squall.cli;

import io.squall.cli.service.JobAction;
import io.squall.cli.service.JobQuery;
import io.squall.cli.service.NodeInfo;
import io.squall.cli.service.PartitionInfo;
import io.squall.cli.service.ReservationInfo;
import io.squall.cli.service.ServiceException;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code scontrol}: {@code show job|node|partition|reservation} records, {@code create} and
 * {@code delete} of reservations ({@link ScontrolReservation}), {@code show hostnames|hostlist}
 * (local, no service needed), {@code hold|release|requeue} of jobs and {@code update} of pending
 * jobs and of nodes ({@link ScontrolUpdate}).
 */
final class ScontrolCommand extends ServiceCommand {
  ScontrolCommand(Invocation io) {
    super("scontrol", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(Getopt.Option.flag('o', "oneliner"), Getopt.Option.flag('d', "details"));
  }

  @Override
  String usage() {
    return """
        Usage: scontrol [-o] COMMAND
          show job [ID]            a job (all jobs without ID)
          show node [NODES]        nodes, as a hostlist (all nodes without NODES)
          show partition [NAME]    a partition (all without NAME)
          show reservation [NAME]  an advanced reservation (all without NAME)
          show hostnames [LIST]    expand a hostlist (default $SLURM_JOB_NODELIST), one name a line
          show hostlist NAMES      compress names into a hostlist
          hold ID...               keep pending jobs from starting
          release ID...            let held jobs start
          requeue ID...            queue jobs again (a running one checkpoints first)
          update JobId=ID[,ID] [TimeLimit=T|TimeLimit+=T|TimeLimit-=T] [Partition=P] [QOS=Q]
                 [NumNodes=N[-M]] [Dependency=LIST] [Nice[=N]] [Priority=N]
                                   change pending jobs (raising a limit, Priority and a negative Nice: operators)
          update NodeName=NODES State=DRAIN Reason=TEXT | State=RESUME
                                   take nodes out of service or back (operators)
          create reservation [ReservationName=NAME] StartTime=now|TIME Duration=MINUTES|D-HH:MM:SS|UNLIMITED
                 (or EndTime=TIME) Nodes=NODES|ALL (or NodeCnt=N [PartitionName=P]) Users=U,.. Accounts=A,..
                 [Flags=MAINT,OVERLAP,IGNORE_JOBS,FLEX]
                                   hold nodes for a window for some users' jobs (operators)
          delete ReservationName=NAME
                                   delete a reservation no job runs in (operators)
          ping                     whether each controller of $SQUALL_URL is UP or DOWN
          write batch_script ID [FILE]
                                   the job's batch script into FILE (slurm-ID.sh; - for standard output)
          -o, --oneliner           each record on one line""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    List<String> words = args.operands();
    if (words.isEmpty()) {
      throw new UsageException("no command given");
    }
    String command = words.get(0).toLowerCase(Locale.ROOT);
    List<String> rest = words.subList(1, words.size());
    switch (command) {
      case "show":
        return show(rest, args.has("oneliner"));
      case "hold":
      case "uhold":
        return act(rest, JobAction.HOLD);
      case "release":
        return act(rest, JobAction.RELEASE);
      case "requeue":
        return act(rest, JobAction.REQUEUE);
      case "update":
        return new ScontrolUpdate(client(), this::error).run(rest);
      case "create":
        if (rest.isEmpty() || !rest.get(0).toLowerCase(Locale.ROOT).startsWith("res")) {
          throw new UsageException("Invalid creation entity: " + String.join(" ", rest)
              + " (Squall creates reservations: create reservation KEY=VALUE...)");
        }
        return new ScontrolReservation(client(), this::error, io.out()).create(rest.subList(1, rest.size()));
      case "delete":
        return new ScontrolReservation(client(), this::error, io.out()).delete(rest);
      case "ping":
        return ping();
      case "write":
        return writeBatchScript(rest);
      default:
        throw new UsageException("Invalid command: " + words.get(0)
            + " (use show, update, create, delete, hold, release, requeue, write or ping)");
    }
  }

  /**
   * {@code scontrol write batch_script JOBID [FILE]}: the job's batch script into FILE
   * ({@code slurm-JOBID.sh} by default, standard output for {@code -}), as scontrol writes it; a
   * failed retrieval leaves no file.
   */
  private int writeBatchScript(List<String> words) {
    if (words.size() < 2 || !words.get(0).equalsIgnoreCase("batch_script")) {
      throw new UsageException("write needs batch_script JOBID [FILE]");
    }
    String id = words.get(1);
    String file = words.size() > 2 ? words.get(2) : "slurm-" + id + ".sh";
    String script;
    try {
      script = client().batchScript(id);
    } catch (ServiceException e) {
      if (e.status() == 401) {
        throw e;
      }
      io.err().println("job script retrieval failed: " + (e.status() == 404 ? "Invalid job id specified" : e.getMessage()));
      return 1;
    }
    if (script == null) {
      io.err().println("job script retrieval failed: job " + id + " is an interactive allocation, without a batch script");
      return 1;
    }
    if (file.equals("-")) {
      io.out().print(script);
      io.out().flush();
      return 0;
    }
    Path target = io.cwd().resolve(file);
    try {
      Files.writeString(target, script);
    } catch (IOException e) {
      io.err().println("failed to open file `" + file + "`: " + e.getMessage());
      return 1;
    }
    io.out().println("batch script for job " + id + " written to " + file);
    return 0;
  }

  /**
   * {@code scontrol ping}: each configured controller, named by its place in the list as
   * scontrol names slurmctld's (primary, backup, backup2, ...), UP when it answers as the leader
   * or a standby. Exits 0 when one is up; when one is down, root gets scontrol's banner too.
   */
  private int ping() {
    List<URI> all = client().controllers();
    boolean anyUp = false;
    boolean anyDown = false;
    for (int i = 0; i < all.size(); i++) {
      boolean up = client().ping(all.get(i));
      anyUp |= up;
      anyDown |= !up;
      String mode = i == 0 ? "primary" : i == 1 && all.size() == 2 ? "backup" : "backup" + i;
      io.out().println("Slurmctld(" + mode + ") at " + all.get(i) + " is " + (up ? "UP" : "DOWN"));
    }
    if (anyDown && "root".equals(localUser())) {
      io.out().println("*****************************************");
      io.out().println("** RESTORE SLURMCTLD DAEMON TO SERVICE **");
      io.out().println("*****************************************");
    }
    return anyUp ? 0 : 1;
  }

  private int show(List<String> words, boolean oneLine) {
    if (words.isEmpty()) {
      throw new UsageException("show needs an entity: job, node, partition, reservation, hostnames or hostlist");
    }
    String entity = words.get(0).toLowerCase(Locale.ROOT);
    String name = words.size() > 1 ? String.join(",", words.subList(1, words.size())) : null;
    ScontrolRecords records = new ScontrolRecords(timeFormat());
    List<KeyValueText> shown = new ArrayList<>();
    switch (entity) {
      case "job", "jobs", "jobid" -> {
        if (name != null) {
          shown.add(records.job(client().job(name)));
        } else {
          client().jobs(JobQuery.all()).forEach(j -> shown.add(records.job(j)));
        }
      }
      case "node", "nodes" -> {
        // Names as a hostlist (node-[1-3],gpu7), in as many words as given.
        Set<String> wanted;
        try {
          wanted = name == null ? Set.of() : new LinkedHashSet<>(Hostlist.expand(name));
        } catch (HostlistException e) {
          throw new UsageException("invalid hostlist: " + e.getMessage());
        }
        Set<String> found = new HashSet<>();
        for (NodeInfo n : client().nodes()) {
          if (name == null || wanted.contains(n.name())) {
            shown.add(records.node(n));
            found.add(n.name());
          }
        }
        List<String> missing = wanted.stream().filter(n -> !found.contains(n)).toList();
        if (!missing.isEmpty()) {
          printRecords(shown, oneLine);
          missing.forEach(n -> error("Node " + n + " not found"));
          return 1;
        }
      }
      case "partition", "partitions", "part" -> {
        for (PartitionInfo p : client().partitions()) {
          if (name == null || p.name().equals(name)) {
            shown.add(records.partition(p));
          }
        }
        if (name != null && shown.isEmpty()) {
          error("Partition " + name + " not found");
          return 1;
        }
      }
      case "reservation", "reservations", "res", "reservationname" -> {
        for (ReservationInfo r : client().reservations()) {
          if (name == null || r.name().equals(name)) {
            shown.add(records.reservation(r));
          }
        }
        if (name != null && shown.isEmpty()) {
          error("Reservation " + name + " not found");
          return 1;
        }
      }
      case "hostnames" -> {
        return hostnames(name);
      }
      case "hostlist", "hostlistsorted" -> {
        return hostlist(name);
      }
      default -> throw new UsageException("Invalid entity " + words.get(0)
          + " for show (use job, node, partition, reservation, hostnames or hostlist)");
    }
    if (shown.isEmpty()) {
      io.out().println("No " + (entity.startsWith("job") ? "jobs" : entity.startsWith("node") ? "nodes"
          : entity.startsWith("res") ? "reservations" : "partitions") + " in the system");
      return 0;
    }
    printRecords(shown, oneLine);
    return 0;
  }

  private void printRecords(List<KeyValueText> records, boolean oneLine) {
    if (records.isEmpty()) {
      return;
    }
    List<String> texts = records.stream().map(t -> t.render(oneLine)).toList();
    // Slurm separates multi-line records with a blank line.
    io.out().println(String.join(oneLine ? "\n" : "\n\n", texts) + (oneLine ? "" : "\n"));
  }

  private int hostnames(String list) {
    String expression = list != null ? list : io.env().get("SLURM_JOB_NODELIST");
    if (expression == null || expression.isBlank()) {
      error("no hostlist given and SLURM_JOB_NODELIST is not set");
      return 1;
    }
    try {
      Hostlist.expand(expression).forEach(io.out()::println);
      return 0;
    } catch (HostlistException e) {
      error("invalid hostlist: " + e.getMessage());
      return 1;
    }
  }

  private int hostlist(String names) {
    if (names == null) {
      throw new UsageException("show hostlist needs host names");
    }
    try {
      io.out().println(Hostlist.compress(Hostlist.expand(names)));
      return 0;
    } catch (HostlistException e) {
      error("invalid hostlist: " + e.getMessage());
      return 1;
    }
  }

  /** {@code squall pause JOBID...}: checkpoint, release the gang, stay held (scontrol release resumes). */
  static ServiceCommand pause(Invocation io) {
    return new ServiceCommand("squall pause", io) {
      @Override
      List<Getopt.Option> options() {
        return List.of();
      }

      @Override
      String usage() {
        return "Usage: squall pause JOBID...\n"
            + "  a running job checkpoints (its checkpoint signal), releases its nodes and waits, held;\n"
            + "  scontrol release JOBID puts it back in the queue";
      }

      @Override
      int execute(Getopt.Parsed args) {
        return new ScontrolCommand(io).act(args.operands(), JobAction.PAUSE);
      }
    };
  }

  private int act(List<String> words, JobAction action) {
    List<String> ids = JobIds.expand(words);
    if (ids.isEmpty()) {
      throw new UsageException(action.path() + " needs a job id");
    }
    int failures = 0;
    for (String id : ids) {
      try {
        client().act(id, action);
      } catch (ServiceException e) {
        if (e.status() == 401) {
          throw e;
        }
        failures++;
        error("Job " + id + ": " + e.getMessage());
      }
    }
    return failures == 0 ? 0 : 1;
  }
}

package io.squall.cli;

import io.squall.cli.format.JobStates;
import java.util.ArrayList;
import java.util.List;

/**
 * A verb with getopt-style options (all but sbatch, whose command line follows sbatch's own
 * option table): it says which options it takes and what it does with them; {@code --help} and
 * error reporting come from here.
 */
abstract class ServiceCommand extends ServiceVerb {
  private List<String> arguments = List.of();

  ServiceCommand(String verb, Invocation io) {
    super(verb, io);
  }

  /** The command line as typed, the verb first (what {@code --json} reports as {@code meta.command}). */
  final List<String> commandLine() {
    List<String> line = new ArrayList<>();
    line.add(verb());
    line.addAll(arguments);
    return line;
  }

  abstract List<Getopt.Option> options();

  abstract String usage();

  /** Does the work; may throw anything {@link #guarded} reports. */
  abstract int execute(Getopt.Parsed args);

  final int run(List<String> args) {
    arguments = List.copyOf(args);
    return guarded(() -> {
      List<Getopt.Option> all = new ArrayList<>(options());
      all.add(Getopt.Option.flag('\0', "help"));
      all.add(Getopt.Option.flag('\0', "usage"));
      Getopt.Parsed parsed = new Getopt(all).parse(args);
      if (parsed.has("help") || parsed.has("usage")) {
        io.out().println(usage());
        return 0;
      }
      return execute(parsed);
    });
  }

  /**
   * The job states given with {@code option} (every use, long names or codes) as the service's
   * names, or {@code otherwise} when the option was not given.
   *
   * @throws UsageException naming an unknown state
   */
  static List<String> states(Getopt.Parsed args, String option, List<String> otherwise) {
    if (!args.has(option)) {
      return otherwise;
    }
    try {
      return JobStates.parseList(String.join(",", args.values().get(option)));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The users of {@code -u}, and with {@code --me} the local user as well. */
  final List<String> users(Getopt.Parsed args) {
    List<String> users = new ArrayList<>(args.list("user"));
    if (args.has("me") && !users.contains(localUser())) {
      users.add(localUser());
    }
    return users;
  }
}

package io.squall.cli;

import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.ServiceAddress;
import io.squall.cli.service.ServiceConfigException;
import io.squall.cli.service.ServiceException;
import io.squall.cli.service.ServiceUnreachableException;
import io.squall.cli.service.SquallClient;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * What every verb that talks to the service shares: the client, and turning failures into
 * Slurm-style {@code VERB: error: ...} lines with exit status 1.
 */
abstract class ServiceVerb {
  private static final int PRINT_BLOCK = 64 * 1024;

  protected final Invocation io;
  private final String verb;
  private SquallClient client;

  ServiceVerb(String verb, Invocation io) {
    this.verb = verb;
    this.io = io;
  }

  /** Runs the body; usage, configuration, connection and service errors become one message and status 1. */
  final int guarded(IntSupplier body) {
    try {
      return body.getAsInt();
    } catch (UsageException e) {
      error(e.getMessage());
      if (e.suggestHelp()) {
        io.err().println("Try \"" + verb + " --help\" for more information");
      }
      return 1;
    } catch (ServiceUnreachableException | ServiceConfigException e) {
      error(e.getMessage());
      return 1;
    } catch (ServiceException e) {
      error(e.getMessage());
      if (e.status() == 401 && client != null && client.address().token() == null) {
        error("no token configured: set SQUALL_TOKEN, or put 'token = ...' in " + client.address().configFile());
      }
      return 1;
    }
  }

  final String verb() {
    return verb;
  }

  final void error(String message) {
    io.err().println(verb + ": error: " + message);
  }

  final void warning(String message) {
    io.err().println(verb + ": warning: " + message);
  }

  /** The client, made on first use so local-only commands need no configuration. */
  final SquallClient client() {
    if (client == null) {
      client = new SquallClient(ServiceAddress.resolve(io.env()));
    }
    return client;
  }

  /** Who {@code --me} means: the local user, as Slurm's tools take it from the login. */
  final String localUser() {
    String user = io.env().get("USER");
    return user == null || user.isBlank() ? System.getProperty("user.name") : user;
  }

  /**
   * How this run prints moments ({@code SLURM_TIME_FORMAT}); an invalid setting is reported and the
   * standard format used, as Slurm does.
   */
  final TimeFormat timeFormat() {
    try {
      return TimeFormat.of(io.env().get("SLURM_TIME_FORMAT"), io.zone(), io.clock().instant());
    } catch (IllegalArgumentException e) {
      error(e.getMessage());
      return TimeFormat.standard(io.zone());
    }
  }

  /**
   * Prints {@code lines}, each ended by a newline. {@code System.out} flushes at every
   * {@code println}, one system call per line: 100,000 of them took squeue 0.6 s, more than its
   * request. So the lines go out in blocks of about 64 KB.
   */
  final void print(List<String> lines) {
    StringBuilder block = new StringBuilder();
    for (String line : lines) {
      block.append(line).append(System.lineSeparator());
      if (block.length() >= PRINT_BLOCK) {
        io.out().print(block.toString());
        block.setLength(0);
      }
    }
    io.out().print(block.toString());
    io.out().flush();
  }
}

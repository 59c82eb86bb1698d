package io.squall.cli;

import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.Table;
import io.squall.cli.format.Table.Column;
import io.squall.cli.service.ShareInfo;
import io.squall.cli.service.Shares;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sshare}: associations' shares, usage and fair-share factors. As Slurm's: without -a or
 * -u, the accounts and the caller's own associations (the service knows the caller from the
 * token); {@code -u -1} is everyone, as {@code -a}.
 */
final class SshareCommand extends ServiceCommand {
  SshareCommand(Invocation io) {
    super("sshare", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.flag('a', "all"),
        Getopt.Option.value('A', "accounts"),
        Getopt.Option.value('u', "users"),
        Getopt.Option.flag('U', "Users"),
        Getopt.Option.flag('l', "long"),
        Getopt.Option.flag('n', "noheader"),
        Getopt.Option.flag('h', "noheader"), // sshare's older letter for it, which it still takes
        Getopt.Option.flag('p', "parsable"),
        Getopt.Option.flag('P', "parsable2"));
  }

  @Override
  String usage() {
    return """
        Usage: sshare [OPTIONS]
          -a, --all              every user
          -A, --accounts=LIST    only these accounts' associations
          -u, --users=LIST       these users (-1: every user); default: yourself
          -U, --Users            user associations only, not their accounts
          -l, --long             with NormUsage (and LevelFS under Fair Tree)
          -n, --noheader         no header line
          -p, --parsable         '|' between fields and after the last
          -P, --parsable2        '|' between fields""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (!args.operands().isEmpty()) {
      throw new UsageException("Unrecognized option: " + args.operands().get(0));
    }
    List<String> users = args.list("users");
    Map<String, String> query = new LinkedHashMap<>();
    if (args.has("all") || users.contains("-1")) {
      query.put("all", "true");
    } else if (!users.isEmpty()) {
      query.put("users", String.join(",", users));
    }
    if (args.has("accounts")) {
      query.put("accounts", String.join(",", args.list("accounts")));
    }
    Shares answer = client().shares(query);
    List<ShareInfo> rows = args.has("Users")
        ? answer.shares().stream().filter(s -> s.user() != null).toList() : answer.shares();
    List<SshareField> fields = !args.has("long") ? SshareField.SHORT
        : answer.fairTree() ? SshareField.LONG_FAIR_TREE : SshareField.LONG_CLASSIC;
    boolean parsable = args.has("parsable2") || args.has("parsable");
    List<LineTemplate.Field> template = fields.stream()
        .map(f -> new LineTemplate.Field(f.name(), parsable ? 0 : Math.abs(f.width()), f.width() > 0, false))
        .toList();
    LineTemplate line = parsable
        ? LineTemplate.columns(template, "|", args.has("parsable") ? "|" : "", LineTemplate.Overflow.MARK)
        : LineTemplate.columns(template, " ", "", LineTemplate.Overflow.MARK);
    Map<String, Column<ShareInfo>> columns = new LinkedHashMap<>();
    for (SshareField f : SshareField.values()) {
      columns.put(f.name(), new Column<>(f.title(), f::value));
    }
    print(new Table<>(line, columns).lines(rows, !args.has("noheader"), !parsable));
    return 0;
  }
}

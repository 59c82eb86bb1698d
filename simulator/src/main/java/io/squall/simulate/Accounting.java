package io.squall.simulate;

import io.squall.core.model.Account;
import io.squall.core.model.Qos;
import io.squall.core.model.UserAssociation;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The QOS, accounts and user associations a controller's configuration defines, which a simulation
 * replays its workload under: their priorities, preemption, shares, and limits (GrpTRES,
 * MaxJobsPerUser, ... as the core's {@code AccountingPolicy} enforces them). Accounts, users and QOS
 * the workload names that are not here are made up by the simulation (top-level accounts of one
 * share, QOS as {@link Qos#normal()}), so a trace from another cluster still replays.
 *
 * @param qos the configured QOS by name, the default one among them
 * @param defaultQos the QOS of a job that names none (the controller's {@code squall.default-qos})
 * @param accounts the configured accounts, with their parents, shares and limits
 * @param users the configured user associations
 */
public record Accounting(Map<String, Qos> qos, String defaultQos, List<Account> accounts, List<UserAssociation> users) {
  /** Nothing configured: only a {@code normal} QOS with no limit. */
  public static final Accounting NONE = new Accounting(Map.of("normal", Qos.normal()), "normal", List.of(), List.of());

  public Accounting {
    qos = Map.copyOf(qos);
    Objects.requireNonNull(defaultQos, "defaultQos");
    if (!qos.containsKey(defaultQos)) {
      throw new IllegalArgumentException("the default QOS " + defaultQos + " is not among the QOS " + qos.keySet());
    }
    accounts = List.copyOf(accounts);
    users = List.copyOf(users);
  }
}

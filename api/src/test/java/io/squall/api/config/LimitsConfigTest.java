package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** QOS and account limits that sacctmgr would refuse stop start-up, naming the key. */
class LimitsConfigTest {
  private static ClusterLayout layout(List<AccountConfig> accounts, QosConfig... qos) {
    PartitionConfig p = new PartitionConfig("gpu");
    p.setNodes("node-[1-2]");
    return new ClusterLayout(List.of(p), accounts, List.of(), List.of(qos), new SquallConfig());
  }

  @Test
  void nonsenseStopsStartUpNamingTheKey() {
    AccountConfig ml = new AccountConfig("ml");
    ml.setGrpTres("gres/gpu=8,licence=2");
    assertThatThrownBy(() -> layout(List.of(ml))).hasMessage("squall.accounts.ml.grp-tres: 'licence' is not a TRES "
        + "Squall limits: use gres/gpu, cpu, mem or node");
    AccountConfig minutes = new AccountConfig("ml");
    minutes.setGrpTresMins("cpu=1000");
    assertThatThrownBy(() -> layout(List.of(minutes))).hasMessage("squall.accounts.ml.grp-tres-mins: 'cpu=1000': "
        + "only gres/gpu minutes are counted (usage is GPU time), as gres/gpu=MINUTES");
    AccountConfig jobs = new AccountConfig("ml");
    jobs.setMaxSubmitJobs(-3);
    assertThatThrownBy(() -> layout(List.of(jobs))).hasMessage("squall.accounts.ml.max-submit-jobs: must be 0 or "
        + "more, not -3");
    QosConfig victim = new QosConfig("high");
    victim.setPreempt(List.of("scavenger"));
    assertThatThrownBy(() -> layout(List.of(), victim)).hasMessage("squall.qos.high.preempt: no QOS 'scavenger' "
        + "under squall.qos (or the default QOS)");
    QosConfig mode = new QosConfig("high");
    mode.setPreemptMode("suspend");
    assertThatThrownBy(() -> layout(List.of(), mode)).hasMessage("squall.qos.high.preempt-mode: 'suspend' is not "
        + "off, requeue or cancel");
    QosConfig perUser = new QosConfig("high");
    perUser.setMaxTresPerUser("gres/gpu=eight");
    assertThatThrownBy(() -> layout(List.of(), perUser)).hasMessage("squall.qos.high.max-tres-per-user: "
        + "gres/gpu=eight: 'eight' is not a whole number");
    QosConfig factor = new QosConfig("high");
    factor.setUsageFactor(-1);
    assertThatThrownBy(() -> layout(List.of(), factor)).hasMessage("squall.qos.high.usage-factor: must be 0 (free) "
        + "or more, not -1.0");
  }
}

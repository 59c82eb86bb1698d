package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environment variables Slurm's tools read: SBATCH_* (sbatch), SQUEUE_FORMAT and
 * SQUEUE_FORMAT2 (squeue), SACCT_FORMAT (sacct) and SLURM_TIME_FORMAT (every tool that prints a
 * moment). Each is overridden by the command line.
 */
class InputEnvironmentTest {
  private final FakeSquall fake = FakeSquall.start()
      .on("GET", "/v1/jobs", 200, SqueueCommandTest.JOBS)
      .on("GET", "/v1/accounting", 200, """
          {"jobs":[{"job_id":"42","name":"train","user":"alice","account":"ml","partition":"gpu","state":"COMPLETED",
            "exit_code":0,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-20T09:00:00Z",
            "end_time":"2026-11-21T10:01:01Z","elapsed_seconds":3661,"num_nodes":2,"num_gpus":16}]}""")
      .on("POST", "/v1/jobs", 201, "{\"job_id\":42,\"warnings\":[]}");
  private final Cli cli = new Cli(fake);

  @TempDir
  Path dir;

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void sbatchInputVariablesApplyToParseOnlyBetweenTheScriptAndTheCommandLine() throws IOException {
    Files.writeString(dir.resolve("job.sh"), "#!/bin/bash\n#SBATCH -p script -t 5\nhostname\n");
    Cli.Result r = cli.cwd(dir).env("SBATCH_PARTITION", "env").env("SBATCH_TIMELIMIT", "1:00:00")
        .run("sbatch", "--parse-only", "job.sh", "-t", "20");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"partition\":\"env\"").contains("\"time_limit_minutes\":20");
    r = cli.env("SBATCH_TIMELIMIT", "later").run("sbatch", "--parse-only", "job.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sbatch: error: SBATCH_TIMELIMIT: --time=later: ");
  }

  @Test
  void sbatchWaitInTheEnvironmentWaits() throws IOException {
    Files.writeString(dir.resolve("job.sh"), "#!/bin/bash\nhostname\n");
    fake.on("GET", "/v1/jobs", 200, "{\"jobs\":[{\"job_id\":\"42\",\"state\":\"FAILED\",\"exit_code\":5}]}");
    Cli.Result r = cli.cwd(dir).env("SBATCH_WAIT", "").run("sbatch", "job.sh");
    assertThat(r.exit()).isEqualTo(5);
    assertThat(cli.pauses()).isNotEmpty();
  }

  @Test
  void squeueFormatIsTheDefaultFormatAndTheCommandLineWins() {
    cli.env("SQUEUE_FORMAT", "%i|%u");
    assertThat(cli.run("squeue", "-h").out().lines()).containsExactly("42|alice", "43|bob", "44_[4-9%2]|alice");
    assertThat(cli.run("squeue", "-h", "-l").out().lines().findFirst()).hasValue("42|alice");
    assertThat(cli.run("squeue", "-h", "-o", "%u").out().lines().findFirst()).hasValue("alice");
  }

  @Test
  void squeueFormat2IsTheLongFormatAndWinsOverSqueueFormat() {
    cli.env("SQUEUE_FORMAT", "%i|%u").env("SQUEUE_FORMAT2", "JobID:6,UserName:.8 |,state");
    assertThat(cli.run("squeue").out().lines()).containsExactly(
        "JOBID     USER |STATE",
        "42       alice |RUNNING",
        "43         bob |PENDING",
        "44       alice |PENDING");
    assertThat(cli.run("squeue", "-h", "-O", "name:5,timelimit").out().lines().findFirst()).hasValue(
        "train1:00:00");
    Cli.Result bad = cli.run("squeue", "-O", "jobid,maxrss");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).startsWith("squeue: error: Invalid job format specification: maxrss");
  }

  @Test
  void sacctFormatIsUsedWhenNeitherFormatNorBriefIsGiven() {
    cli.env("SACCT_FORMAT", "JobID,State%12");
    assertThat(cli.run("sacct", "-n", "-P").out()).isEqualTo("42|COMPLETED\n");
    assertThat(cli.run("sacct", "-n", "-P", "-o", "user").out()).isEqualTo("alice\n");
    // As in sacct, --brief adds its fields to --format's.
    assertThat(cli.run("sacct", "-n", "-P", "-o", "user", "-b").out()).isEqualTo("alice|42|COMPLETED|0:0\n");
  }

  @Test
  void slurmTimeFormatChangesEveryPrintedMoment() {
    cli.env("SLURM_TIME_FORMAT", "relative");
    assertThat(cli.run("sacct", "-n", "-P", "-o", "submit,start,end").out())
        .isEqualTo("08:00:00|Ystday 09:00|10:01:01\n");
    cli.env("SLURM_TIME_FORMAT", "%s");
    assertThat(cli.run("squeue", "-h", "-o", "%V").out().lines().findFirst()).hasValue("1795255200");
    cli.env("SLURM_TIME_FORMAT", "iso");
    Cli.Result r = cli.run("sacct", "-n", "-P", "-o", "start");
    assertThat(r.out()).isEqualTo("2026-11-20T09:00:00\n");
    assertThat(r.err()).isEqualTo("sacct: error: invalid SLURM_TIME_FORMAT = 'iso'\n");
  }
}

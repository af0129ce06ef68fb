package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Valid but unusual runs whose report has nothing to compare (issue 20): the command says so and
 * still writes what it has; a raw file read back with values no run writes is refused by file and line.
 */
class ReportEdgeCasesTest {

  @TempDir
  Path dir;

  @Test
  void colocateWithExclusiveUseAloneSaysThereIsNothingToCompareAndWritesItsFiles() throws Exception {
    Path cluster = BadInputs.write(dir, "lab.csv", "gpu_type,count\nA100-SXM4-80GB,4\n");
    Path demand = BadInputs.write(dir, "demand.csv", "model,rate,slo_ms,max_batch\nresnet50,400,50,16\n");
    Path out = dir.resolve("out");
    BadInputs.Run run = BadInputs.run("colocate", "--cluster-file", cluster.toString(), "--demand", demand.toString(), "--planners", "exclusive",
        "--threads", "1", "--time-limit-s", "5", "--out", out.toString());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("nothing to compare", "| exclusive | 1/1 | 1.00 |").doesNotContain("e2-gap.png");
    assertThat(out.resolve("e2.csv")).isNotEmptyFile();
    assertThat(out.resolve("e2-summary.md")).isNotEmptyFile();
  }

  @Test
  void colocateFromCsvRefusesNaNNamingFileLineAndColumn() throws Exception {
    String header = "cluster,regime,small_share,batch_cap,seed,services,planner,status,scale,gain_over_exclusive,bound,gap_to_bound,seconds,"
        + "hit_time_limit,gpus_used,gpus_needed,needed_seconds,unusable_slices,idle_compute,reconfigured_gpus,layouts\n";
    Path csv = BadInputs.write(dir, "e2.csv", header + "a100,batch<=1,0.0,1,1,20,exclusive,FEASIBLE,27.8,1.0,,,2.2,false,1000,,,0,0.0,0,1\n"
        + "a100,batch<=1,0.0,1,1,20,exact,FEASIBLE,NaN,,,,2.2,false,1000,,,0,0.0,0,1\n");
    BadInputs.Run run = BadInputs.run("colocate", "--from-csv", csv.toString(), "--out", dir.resolve("out").toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains(csv + " line 3 column scale", "NaN").doesNotContain("Exception");
  }

  @Test
  void e4WithASharingPlannerAloneReportsNoGainAndWritesItsFiles() throws Exception {
    Path out = dir.resolve("e4");
    BadInputs.Run run = BadInputs.run("vastpipe-e4", "--planners", "rampa-greedy/capability+sharing", "--seeds", "1", "--arrivals", "20",
        "--workloads", "light", "--loads", "96", "--threads", "1", "--out", out.toString());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("Nothing to compare", "rampa-greedy/capability, sharing on");
    // one run: the planner that already shares is not run a second time as its own sharing variant
    assertThat(Files.readAllLines(out.resolve("e4.csv"))).hasSize(2);
    assertThat(out.resolve("e4-light.png")).isNotEmptyFile();
  }
}

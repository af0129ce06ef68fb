package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.examples.experiment.Presets;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import picocli.CommandLine;

class RampaCliTest {

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RampaCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  private static Path problem(Path dir, double throughput, String strategy) throws Exception {
    ServiceRequest request = ServiceRequest.builder().id("bert").model(ModelCatalog.prefill("bert-large", 384))
        .slo(Slo.of(throughput, Duration.ofMillis(200), 4)).build();
    Path file = dir.resolve("problem.json");
    Files.writeString(file, RampaJson.write(ProblemDocument.builder().cluster(ClusterPresets.small()).request(request)
        .strategy(strategy).build()));
    return file;
  }

  @Test
  void everyCommandHasHelpThatPicocliFormatsWithoutWarnings() {
    // picocli formats descriptions with String.format and, on a bare '%', prints a warning to System.err
    // and shows the raw text; the warning is the only trace, so the test listens there
    PrintStream originalErr = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    Set<String> commands = new CommandLine(new RampaCli()).getSubcommands().keySet();
    try {
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      for (String command : commands) {
        if (command.equals("help")) {
          continue;
        }
        Run r = run(command, "--help");
        assertThat(r.code()).as(command).isZero();
        assertThat(r.out()).as(command).contains("Usage: rampa " + command);
      }
    } finally {
      System.setErr(originalErr);
    }
    assertThat(commands).contains("plan", "predict", "colocate", "simulate", "verify", "vastpipe-e4");
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void versionComesFromTheJarManifestAndSaysSoWhenThereIsNone() {
    // tests run from target/classes, which have no manifest; rampa.jar gets Implementation-Version from the build
    Run r = run("--version");
    assertThat(r.code()).isZero();
    assertThat(r.out().strip()).isEqualTo("rampa (development build: run from classes, not from rampa.jar)");
    assertThat(RampaCli.JarVersion.version("1.2.3")).isEqualTo("1.2.3");
  }

  @Test
  void catalogListsGpusAndModels() {
    Run r = run("catalog");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("H100-SXM5-80GB", "llama2-70b", "resnet50");
  }

  @Test
  void presetPrintsTheClusterThatSimulateReadsBack(@TempDir Path dir) throws Exception {
    Run r = run("preset", "large");
    assertThat(r.code()).as(r.err()).isZero();
    Path file = dir.resolve("large.json");
    Files.writeString(file, r.out());
    assertThat(Presets.cluster(file.toString())).isEqualTo(ClusterPresets.large()).isEqualTo(Presets.cluster("large"));
    Run unknown = run("preset", "medium");
    assertThat(unknown.code()).isEqualTo(RampaCli.BAD_INPUT);
    assertThat(unknown.err()).contains("preset = medium", "[small, large]");
  }

  @Test
  void planPrintsAResultAndExitsZeroEvenWhenInfeasible(@TempDir Path dir) throws Exception {
    Run ok = run("plan", problem(dir, 50, "greedy").toString());
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(RampaJson.read(ok.out(), PlacementResult.class).status().hasPlan()).isTrue();
    Run infeasible = run("plan", problem(dir, 1e7, "greedy").toString());
    assertThat(infeasible.code()).as(infeasible.err()).isZero();
    PlacementResult r = RampaJson.read(infeasible.out(), PlacementResult.class);
    assertThat(r.status()).isEqualTo(SolveStatus.INFEASIBLE);
    assertThat(r.reason()).isNotBlank();
  }

  @Test
  void badInputExitsTwoWithAMessageNamingTheProblem(@TempDir Path dir) throws Exception {
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, Files.readString(problem(dir, 50, "greedy")).replace("\"batchSize\" : 4", "\"batchSize\" : 0"));
    Run r = run("plan", broken.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("slo.batchSize = 0");
    assertThat(run("plan", dir.resolve("missing.json").toString()).code()).isEqualTo(2);
    assertThat(run("plan", problem(dir, 50, "no-such").toString()).err()).contains("strategy = no-such");
    assertThat(run("simulate", "--arrivals", "many").code()).isEqualTo(2);
    Run noSeeds = run("simulate", "--seeds", "0");
    assertThat(noSeeds.code()).isEqualTo(2);
    assertThat(noSeeds.err()).contains("seeds = 0");
    assertThat(run("no-such-command").code()).isEqualTo(2);
  }

  @Test
  void simulateReadsAWorkloadFileAndNamesWhatIsWrongInIt(@TempDir Path dir) throws Exception {
    Path workload = dir.resolve("workload.json");
    Files.writeString(workload, "{\"classes\": [{\"model\": \"resnet50\", \"phase\": \"model\", \"tokens\": 0, \"batch\": 8,"
        + " \"slo\": \"LOOSE\", \"weight\": 1, \"maxStages\": 2}]}");
    Run ok = run("simulate", "--planners", "first-fit", "--workload", workload.toString(), "--loads", "4", "--arrivals", "20",
        "--out", dir.resolve("out").toString());
    assertThat(ok.code()).as(ok.err()).isZero();
    Files.writeString(workload, Files.readString(workload).replace("\"batch\": 8", "\"batch\": 0"));
    Run bad = run("simulate", "--planners", "first-fit", "--workload", workload.toString(), "--out", dir.resolve("out").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("$.classes[0]").contains("batch = 0");
  }

  @Test
  void simulateReplaysATrace(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("trace.csv");
    Files.writeString(trace, "arrival_s,class,lifetime_s\n1.0,0,3600\n2.0,23,3600\n3.5,5,10\n");
    Run r = run("simulate", "--planners", "first-fit", "--trace", trace.toString(), "--out", dir.resolve("out").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("replaying").contains("3 arrivals");
    Files.writeString(trace, "arrival_s,class,lifetime_s\n1.0,99,3600\n");
    Run bad = run("simulate", "--planners", "first-fit", "--trace", trace.toString(), "--out", dir.resolve("out").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("class = 99");
  }

  @Test
  void simulateWritesTableCsvChartsAndSummary(@TempDir Path dir) {
    Run r = run("simulate", "--planners", "performance-first,rampa-greedy/capability", "--loads", "16,32", "--arrivals", "60",
        "--seeds", "2", "--out", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("performance-first", "rampa-greedy/capability", "admitted the most services", "offline bound",
        "x 2 seeds");
    for (String f : new String[] {"admission.csv", "admission-summary.csv", "rejections.csv", "admission.png", "admission.svg",
        "summary.txt"}) {
      assertThat(dir.resolve(f)).exists();
    }
  }
}

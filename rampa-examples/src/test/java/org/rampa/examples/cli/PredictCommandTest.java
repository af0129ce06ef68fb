package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Model;
import org.rampa.examples.cli.RampaCliTest.Run;
import org.rampa.json.RampaJson;
import org.rampa.perf.PerformanceModel;

class PredictCommandTest {

  private static JsonNode predict(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "predict";
    System.arraycopy(args, 0, all, 1, args.length);
    Run r = RampaCliTest.run(all);
    assertThat(r.code()).as(r.err()).isZero();
    return RampaJson.read(r.out(), JsonNode.class);
  }

  private static Run refused(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "predict";
    System.arraycopy(args, 0, all, 1, args.length);
    Run r = RampaCliTest.run(all);
    assertThat(r.code()).as(r.out()).isEqualTo(RampaCli.BAD_INPUT);
    return r;
  }

  @Test
  void noPlacementAndMpsOneAreTheWholeGpuAtTheWholeGpuModelsTime() {
    Model llama = ModelCatalog.prefill("llama2-7b", 512);
    double whole = PerformanceModel.defaults().stageSeconds(llama, 0, llama.size(), GpuCatalog.standard().type("A100-SXM4-80GB"), 2);
    for (String[] extra : new String[][] {{}, {"--mps", "1.0"}}) {
      String[] args = new String[8 + extra.length];
      System.arraycopy(new String[] {"--model", "llama2-7b", "--phase", "prefill", "--gpu", "A100-SXM4-80GB", "--batch", "2"}, 0, args, 0, 8);
      System.arraycopy(extra, 0, args, 8, extra.length);
      JsonNode p = predict(args);
      assertThat(p.get("placement").get("kind").asText()).isEqualTo("whole");
      assertThat(p.get("seconds").asDouble()).isEqualTo(whole);
      assertThat(p.get("memoryBytes").asLong()).isEqualTo(PerformanceModel.defaults().stageMemoryBytes(llama, 0, llama.size(), 2));
      assertThat(p.get("fits").asBoolean()).isTrue();
    }
  }

  @Test
  void mpsProcessesInAMigSliceAnswerParvaGpusMeasurementPerProcess() {
    // ParvaGPU resnet50.csv: 3g, batch 8, 2 processes: 610.776 samples/s per process
    JsonNode p = predict("--model", "resnet50", "--runtime", "pytorch-eager", "--gpu", "A100-SXM4-80GB", "--batch", "8", "--mig", "3g.40gb@4",
        "--mps-processes", "2");
    assertThat(p.get("placement").get("kind").asText()).isEqualTo("mig-mps");
    assertThat(p.get("placement").get("start").asInt()).isEqualTo(4);
    assertThat(p.get("placement").get("processes").asInt()).isEqualTo(2);
    assertThat(p.get("seconds").asDouble()).isCloseTo(8 / 610.776, within(1e-12));
    assertThat(p.get("fits").asBoolean()).isTrue();
  }

  @Test
  void eachRuntimeIsTimedByItsOwnMeasurementsWholeAndOnA7gInstance() {
    // TensorRT (the catalog's MLPerf calibration) on the whole GPU and on 7g: no PyTorch table mixed in
    JsonNode trtWhole = predict("--model", "resnet50", "--gpu", "A100-SXM4-80GB");
    JsonNode trt7g = predict("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mig", "7g.80gb");
    assertThat(trtWhole.get("runtime").asText()).isEqualTo("tensorrt");
    assertThat(trt7g.get("runtime").asText()).isEqualTo("tensorrt");
    assertThat(trt7g.get("seconds").asDouble()).isBetween(trtWhole.get("seconds").asDouble(), 2 * trtWhole.get("seconds").asDouble());
    // PyTorch eager (ParvaGPU resnet50.csv: 7g, batch 1, 1 process: 195.826 samples/s) on 7g and, the same instance, whole
    JsonNode eagerWhole = predict("--model", "resnet50", "--runtime", "pytorch-eager", "--gpu", "A100-SXM4-80GB");
    JsonNode eager7g = predict("--model", "resnet50", "--runtime", "pytorch-eager", "--gpu", "A100-SXM4-80GB", "--mig", "7g.80gb");
    assertThat(eagerWhole.get("runtime").asText()).isEqualTo("pytorch-eager");
    assertThat(eager7g.get("seconds").asDouble()).isCloseTo(1 / 195.826, within(1e-12));
    assertThat(eagerWhole.get("seconds").asDouble()).isEqualTo(eager7g.get("seconds").asDouble());
    assertThat(refused("--model", "resnet50", "--runtime", "onnx", "--gpu", "T4").err()).contains("--runtime", "runtime = onnx", "pytorch-eager");
  }

  @Test
  void mpsProcessesWithoutAMeasuredSeriesOrAMigSliceOrOverTheClientLimitAreRefusedNamingTheOption() {
    assertThat(refused("--model", "llama2-7b", "--phase", "decode", "--gpu", "A100-SXM4-80GB", "--mig", "3g.40gb", "--mps-processes", "2").err())
        .contains("--mps-processes = 2", "no measured or fitted series", "Maybe");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mps", "0.5", "--mps-processes", "2").err())
        .contains("--mps-processes = 2", "--mig");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mps-processes", "2").err())
        .contains("--mps-processes = 2", "--mig");
    // 48 clients per GPU in proportion to 1 of 7 compute slices: at most 6 in a 1g instance
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mig", "1g.10gb", "--mps-processes", "7").err())
        .contains("--mps-processes = 7", "at most 6");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mig", "1g.10gb", "--mps-processes", "0").err())
        .contains("--mps-processes = 0", ">= 1");
  }

  @Test
  void aMigSliceOfAMeasuredModelAnswersTheMeasurementAndCoRunnersDoNotSlowIt() {
    // ParvaGPU resnet50.csv: 3g, batch 8, 1 process: 1072.439 samples/s
    JsonNode p = predict("--model", "resnet50", "--runtime", "pytorch-eager", "--gpu", "A100-SXM4-80GB", "--batch", "8", "--mig", "3g.40gb",
        "--co-runners", "1");
    assertThat(p.get("placement").get("kind").asText()).isEqualTo("mig");
    assertThat(p.get("placement").get("start").asInt()).isZero();
    assertThat(p.get("seconds").asDouble()).isCloseTo(8 / 1072.439, within(1e-12));
    assertThat(p.get("slowdown").asDouble()).isEqualTo(1.0);
  }

  @Test
  void mpsCoRunnersSlowTheStageLinearlyAndAOneGigSliceCannotHoldLlama() {
    JsonNode alone = predict("--model", "llama2-7b", "--phase", "decode", "--gpu", "A100-SXM4-80GB", "--mps", "0.3");
    JsonNode two = predict("--model", "llama2-7b", "--phase", "decode", "--gpu", "A100-SXM4-80GB", "--mps", "0.3", "--co-runners", "2");
    assertThat(two.get("seconds").asDouble()).isCloseTo(alone.get("seconds").asDouble() * 1.10, within(1e-12));
    JsonNode tiny = predict("--model", "llama2-7b", "--gpu", "A100-SXM4-80GB", "--mig", "1g.10gb@6");
    assertThat(tiny.get("fits").asBoolean()).isFalse();
    assertThat(tiny.get("memoryBytes").asLong()).isGreaterThan(tiny.get("capacityBytes").asLong());
  }

  @Test
  void cuMasksAndTemplatesArePredicted() {
    JsonNode cu = predict("--model", "resnet50", "--gpu", "MI100", "--cu-mask", "60");
    assertThat(cu.get("computeFraction").asDouble()).isEqualTo(0.5);
    JsonNode npu = predict("--model", "resnet50", "--gpu", "NPU-8C-64GB", "--template", "vir02");
    assertThat(npu.get("placement").get("kind").asText()).isEqualTo("template");
    assertThat(npu.get("computeFraction").asDouble()).isEqualTo(0.25);
  }

  @Test
  void badOptionsExitTwoNamingTheOption() {
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mig", "9g.90gb").err()).contains("--mig", "9g.90gb");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--mig", "1g.5gb").err()).contains("--mig", "no MIG geometry");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mig", "3g.40gb@2").err()).contains("--mig", "start");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mps", "0").err()).contains("--mps = 0.0", "(0, 1]");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--mps", "30").err()).contains("--mps = 30.0", "Maybe");
    assertThat(refused("--model", "resnet50", "--gpu", "MI100", "--cu-mask", "121").err()).contains("--cu-mask = 121", "120");
    assertThat(refused("--model", "resnet50", "--gpu", "A100-SXM4-80GB", "--cu-mask", "10").err()).contains("--cu-mask", "no CU masking");
    assertThat(refused("--model", "resnet50", "--gpu", "NPU-8C-64GB", "--template", "vir03").err()).contains("--template", "vir03");
    assertThat(refused("--model", "resnet50", "--gpu", "B999").err()).contains("--gpu = B999");
    assertThat(refused("--model", "nope", "--gpu", "T4").err()).contains("--model = nope");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--phase", "decode").err()).contains("--phase");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--batch", "0").err()).contains("--batch = 0");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--batch", "4097").err()).contains("--batch = 4097", "[1, 4096]");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--co-runners", "48").err()).contains("--co-runners = 48", "[0, 47]");
    assertThat(refused("--model", "resnet50", "--gpu", "T4", "--mps", "0.5", "--mig", "1g.5gb").err()).contains("mutually exclusive");
  }

  @Test
  void predictHasHelp() {
    Run r = RampaCliTest.run("predict", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Usage: rampa predict", "5 % per contended co-runner");
  }

  @Test
  void catalogListsMigProfilesAndCuCounts() {
    Run r = RampaCliTest.run("catalog");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("3g.40gb (42/108, 39.3, [0, 4])", "MI100", "120", "vir04 (4/8, 32)");
  }
}

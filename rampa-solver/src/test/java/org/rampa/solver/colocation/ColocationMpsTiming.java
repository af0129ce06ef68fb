package org.rampa.solver.colocation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;

/**
 * Timed example (not a test): the exact planner on catalog mixes where MPS has times (analytic tier,
 * default interference): 4, 8, 12 and 16 services cycling through six catalog models (batches 1, 4,
 * 16; SLO 20–220 ms; rates 20–1500 req/s) on 200 T4 (MPS only) and 100 A100-80GB (MIG and MPS),
 * fewest GPUs, 10 s limit, no warm start. Prints per mix the planner's wall time, its status and
 * GPUs, and the MPS pairs and triples it searched (from its reason). ParvaGPU's scenarios and
 * {@link ColocationTiming} use measured tables without MPS times, so they search no MPS sets at all.
 * Usage: {@code ColocationMpsTiming [mixes per size]}.
 */
public final class ColocationMpsTiming {
  private ColocationMpsTiming() {}

  static ColocationProblem mix(int n, long seed) {
    Random r = new Random(seed);
    List<String> models = List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "gpt2-small", "vit-b16");
    List<ColocationService> services = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String m = models.get(i % models.size());
      services.add(new ColocationService(m + "-" + i, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1), 20 + r.nextInt(1500),
          Duration.ofMillis(20 + r.nextInt(200)), 1L << 30, 1));
    }
    List<GpuPool> pools = List.of(new GpuPool(GpuCatalog.standard().type("T4"), SharingCatalog.standard().partitioning("T4"), 200),
        new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"), SharingCatalog.standard().partitioning("A100-SXM4-80GB"), 100));
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), SloRule.wholeSlo(),
        MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
  }

  public static void main(String[] args) {
    int mixes = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    PatternColocationPlanner exact = new PatternColocationPlanner();
    exact.plan(mix(4, 0), Duration.ofSeconds(10)); // warm-up: natives, JIT
    for (int n : new int[] {4, 8, 12, 16}) {
      for (int k = 0; k < mixes; k++) {
        ColocationProblem p = mix(n, 100L * n + k);
        long t0 = System.nanoTime();
        ColocationResult r = exact.plan(p, Duration.ofSeconds(10));
        double ms = (System.nanoTime() - t0) / 1e6;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) MPS pairs(, (\\d+) MPS triples)?").matcher(r.reason());
        String sets = m.find() ? m.group(1) + " pairs, " + (m.group(3) == null ? "no" : m.group(3)) + " triples" : "?";
        System.out.printf("services %d mix %d: %.0f ms, %s, %s GPUs, %s%s%n", n, k, ms, r.status(),
            r.plan().map(pl -> String.valueOf(pl.gpuCount())).orElse("-"), sets, r.reason().contains("not searched") ? " (" + r.reason().replaceAll(".*?(, MPS [a-z]+ not searched \\(too many\\))+.*", "$1") + ")" : "");
      }
    }
  }
}

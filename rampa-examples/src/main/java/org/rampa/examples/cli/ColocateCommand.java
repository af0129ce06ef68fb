package org.rampa.examples.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.scenarios.ParvaGpuDeployments;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.colocation.SloRule;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.json.RampaJson;
import org.rampa.perf.share.TierMargins;
import org.rampa.solver.colocation.PatternColocationPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "colocate", mixinStandardHelpOptions = true,
    description = "Co-locate a demand mix on shared GPUs (MIG instances with MPS processes) and print the plan as JSON: "
        + "GPUs used, status, bound (exact) and every GPU configuration. Without --parvagpu-scenario: the E2 experiment "
        + "(generated mixes on 1000-accelerator presets, every planner, several seeds; CSV, summary, charts).")
final class ColocateCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--parvagpu-scenario", paramLabel = "K",
      description = "ParvaGPU's published SLO scenario K (1..6) on its measured A100-80GB profiles, under its SLO rule (a segment's batch <= 0.9 x SLO / 2).")
  Integer scenario;

  @Mixin
  ColocateExperiment experiment;

  @Option(names = "--planner", defaultValue = "heuristic", paramLabel = "NAME",
      description = "exact (aggregated integer model on SCIP with its LP bound, warm-started by the heuristic), heuristic, learned (the shipped policy; "
          + "fewest GPUs by searching the cluster's size with the policy placing), or a baseline: exclusive, uniform-mig-1g, uniform-mig-3g, "
          + "even-mps-2, even-mps-4, gpu-lets, time-sharing (the MPS baselines find no plan on ParvaGPU's MIG-only measurements; time-sharing takes turns on the 7g instance). Default: ${DEFAULT-VALUE}.")
  String planner;

  @Option(names = "--objective", defaultValue = "min-gpus", paramLabel = "NAME",
      description = "min-gpus (serve the demand on the fewest GPUs), max-scale (the largest multiple of the demand), max-weighted-throughput. Default: ${DEFAULT-VALUE}.")
  String objective;

  @Option(names = "--gpus", defaultValue = "1000", paramLabel = "N", description = "A100-80GB GPUs in the cluster (1..100000). Default: ${DEFAULT-VALUE}.")
  int gpus;

  @Option(names = "--slo-rule", defaultValue = "rampa", paramLabel = "NAME",
      description = "How ParvaGPU's SLO rule (0.9 x SLO / 2 per batch) is judged: rampa (the batch time, batch / throughput, with the library's tolerance) "
          + "or parvagpu-literal (as ParvaGPU's code: the latency in whole ms strictly below 0.9 x SLO / 2 with the SLO truncated to whole ms). "
          + "Every planner and the verifier use it. Default: ${DEFAULT-VALUE}.")
  String sloRule;

  @Option(names = "--time-limit-s", defaultValue = "10", paramLabel = "SECONDS", description = "Time limit of the planner (0 < s <= 3600). Default: ${DEFAULT-VALUE}.")
  double timeLimitSeconds;

  @Option(names = "--margin", defaultValue = "default", paramLabel = "M",
      description = "Safety margin on predicted stage times: default (each share-time tier's margin from its own measured error: "
          + "org.rampa.catalog.TierErrors; the analytic tier's per serving runtime), none, or one fraction for every tier (0.1 for 10 %%). "
          + "The plan is verified under it and, with --parvagpu-scenario and a margin other than none, the margin-free plan is made too "
          + "and reported as marginFree; in experiment mode every planner plans under it. Default: ${DEFAULT-VALUE}.")
  String margin;

  private static final List<String> PLANNERS = plannerNames();

  private static List<String> plannerNames() {
    List<String> names = new ArrayList<>(List.of("exact"));
    names.addAll(ColocationPlanners.NAMES);
    names.add(ColocationPlanners.LEARNED);
    return List.copyOf(names);
  }

  @Override
  public Integer call() {
    Duration limit = OptionChecks.seconds("--time-limit-s", timeLimitSeconds, 3600);
    if (scenario == null) {
      OptionChecks.refuseUnused(spec, "in experiment mode (without --parvagpu-scenario)",
          "--planners NAME,... for the experiment's planners, or add --parvagpu-scenario K", "--planner", "--objective", "--gpus", "--slo-rule");
      return experiment.run(spec, limit, TierMargins.parse("--margin", margin));
    }
    OptionChecks.refuseUnused(spec, "with --parvagpu-scenario (it is an experiment-mode option)",
        "drop it, or drop --parvagpu-scenario to run the experiment", ColocateExperiment.OPTIONS.toArray(String[]::new));
    if (scenario < 1 || scenario > ParvaGpuScenarios.SCENARIOS) {
      throw Invalid.value("--parvagpu-scenario", scenario, "must lie in [1, " + ParvaGpuScenarios.SCENARIOS + "]", "ParvaGPU published six scenarios");
    }
    if (gpus < 1 || gpus > 100_000) {
      throw Invalid.value("--gpus", gpus, "must lie in [1, 100000]");
    }
    ColocationObjective goal = switch (objective) {
      case "min-gpus" -> ColocationObjective.MIN_GPUS;
      case "max-scale" -> ColocationObjective.MAX_SCALE;
      case "max-weighted-throughput" -> ColocationObjective.MAX_WEIGHTED_THROUGHPUT;
      default -> throw Invalid.value("--objective", objective, "is not an objective", "use min-gpus, max-scale or max-weighted-throughput");
    };
    SloRule rule = switch (sloRule) {
      case "rampa" -> SloRule.parvaGpu();
      case "parvagpu-literal" -> SloRule.parvaGpuLiteral();
      default -> throw Invalid.value("--slo-rule", sloRule, "is not an SLO rule", "use rampa or parvagpu-literal");
    };
    if (!PLANNERS.contains(planner)) {
      throw Invalid.value("--planner", planner, "is not a co-location planner", "use one of " + PLANNERS);
    }
    ColocationPlanner p = planner.equals("exact")
        ? VerifiedColocationPlanner.of(new PatternColocationPlanner(ColocationPlanners.named("heuristic")))
        : ColocationPlanners.named(planner);
    TierMargins margins = TierMargins.parse("--margin", margin);
    ColocationProblem problem = ParvaGpuScenarios.scenario(scenario, gpus, goal, rule).withMargins(margins);
    long t0 = System.nanoTime();
    ColocationResult result = p.plan(problem, limit);
    double millis = (System.nanoTime() - t0) / 1e6;
    ObjectNode root = json(problem, result, millis);
    if (!margins.isNone()) {
      // the margin's price: the same planner on the nominal times, next to the plan made with the margin
      ColocationResult free = p.plan(problem.nominal(), limit);
      ObjectNode f = root.putObject("marginFree");
      f.put("status", free.status().name());
      f.put("gpus", free.plan().map(ColocationPlan::gpuCount).orElse(0));
      free.plan().ifPresent(plan -> f.put("scale", plan.scale()));
    }
    spec.commandLine().getOut().println(RampaJson.write(root));
    return 0;
  }

  private ObjectNode json(ColocationProblem problem, ColocationResult result, double millis) {
    ObjectNode root = RampaJson.mapper().createObjectNode();
    root.put("scenario", scenario);
    root.put("planner", planner);
    root.put("objective", objective);
    root.put("sloRule", problem.sloRule().reading().label());
    root.put("status", result.status().name());
    root.put("gpus", result.plan().map(ColocationPlan::gpuCount).orElse(0));
    // ParvaGPU's own published deployment of the scenario, and whether it passes the verifier here
    root.put("parvaGpuPublished", ParvaGpuDeployments.gpuCount(scenario));
    root.put("parvaGpuPublishedValid", ColocationVerifier.check(problem.nominal(), ParvaGpuDeployments.plan(scenario)).isEmpty());
    // the margin per tier the plan was made and verified under, and whether the plan also holds on the nominal times
    ObjectNode m = root.putObject("margins");
    problem.margins().byLabel().forEach(m::put);
    root.put("validWithoutMargin", result.plan().map(plan -> ColocationVerifier.check(problem.nominal(), plan).isEmpty()).orElse(false));
    root.put("parvaGpuPublishedValidWithMargin", ColocationVerifier.check(problem, ParvaGpuDeployments.plan(scenario)).isEmpty());
    result.plan().ifPresent(plan -> root.put("scale", plan.scale()));
    result.value().ifPresent(v -> root.put("value", v));
    if (result.bound().isPresent()) {
      root.put("bound", result.bound().getAsDouble());
    } else {
      root.putNull("bound");
    }
    result.gap().ifPresent(g -> root.put("gap", g));
    root.put("millis", millis);
    root.put("reason", result.reason());
    ArrayNode configurations = root.putArray("configurations");
    result.plan().ifPresent(plan -> {
      // identical GPUs are listed once with their count, so a 1000-GPU plan stays readable
      Map<GpuConfiguration, Integer> counts = new LinkedHashMap<>();
      plan.gpus().forEach(g -> counts.merge(g, 1, Integer::sum));
      counts.forEach((g, n) -> {
        ObjectNode c = configurations.addObject();
        c.put("count", n);
        c.put("gpuType", g.gpuType());
        ArrayNode segments = c.putArray("segments");
        List<SegmentPerformance> perf = ColocationPerformance.evaluate(problem.nominal(), g).orElseThrow();
        List<SegmentPerformance> planned = ColocationPerformance.evaluate(problem, g).orElseThrow();
        for (int i = 0; i < g.segments().size(); i++) {
          Segment s = g.segments().get(i);
          ObjectNode seg = segments.addObject();
          seg.put("service", s.service());
          // one service, one runtime: every segment of it is timed by its model's runtime
          seg.put("runtime", problem.service(s.service()).model().runtime().id());
          seg.set("placement", RampaJson.mapper().valueToTree(s.placement()));
          seg.put("batch", s.batch());
          seg.put("processes", s.processes());
          if (s.placement() instanceof MigSliceMps || s.placement() instanceof MpsShare) {
            // each MPS process holds its own memory plus an MPS context: what admission charges, reported from its rule
            GpuPartitioning parts = problem.pools().stream().filter(pool -> pool.type().name().equals(g.gpuType())).findFirst().orElseThrow().partitioning();
            seg.put("mpsContextBytesPerProcess", parts.mpsProcessOverheadBytes());
            seg.put("mpsReservedBytes", MpsAdmission.reservedBytes(parts, s.placement()));
          }
          seg.put("batchMs", perf.get(i).batchSeconds() * 1e3);
          seg.put("throughput", perf.get(i).throughput());
          // the batch time the plan was made for: batchMs times 1 + the margin of the tier that answered
          seg.put("plannedBatchMs", planned.get(i).batchSeconds() * 1e3);
        }
      });
    });
    return root;
  }
}

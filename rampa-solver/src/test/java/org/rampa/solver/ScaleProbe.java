package org.rampa.solver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.RandomInstances;

/**
 * Timed example (not a test) of issue 27: per-decision time of greedy, dp and exact on
 * {@code ClusterPresets.mixed} clusters of 48, 1008 and 10 000 GPUs (4 GPUs per node, the four
 * preset types in equal node counts; 48 is {@code ClusterPresets.small()}), each GPU held whole by
 * a background service with probability 1/2, requests cycling Llama-2-70B prefill (2 req/s within
 * 2 s), Llama-2-13B prefill (8 req/s within 800 ms) and Llama-2-7B decode (20 req/s within
 * 200 ms), all at 512 tokens, batch 1, capability importance.
 *
 * <p>Every decision gets a fresh {@code Rampa.on(state)} on a fresh state (the base state plus one
 * more GPU held by the decision before), so the state's lazily derived views (capacity, holdings
 * per GPU) are built inside the timed call, as in a simulator where every arrival sees a new state.
 * Prints per cluster size and strategy p50 / p90 / p99 of the wall time and of the deciding
 * thread's CPU time, and the statuses and mean plan cost.
 *
 * <p>Arguments: {@code gpus=48,1008,10000 strategies=greedy,dp,exact decisions=60 warmup=30
 * limit=PT30S seed=1} (decisions and warm-up per strategy and size).
 */
public final class ScaleProbe {
  private ScaleProbe() {}

  public static void main(String[] args) {
    int[] sizes = {48, 1008, 10_000};
    String[] strategies = {"greedy", "dp", "exact"};
    int decisions = 60;
    int warmup = 30;
    Duration limit = Duration.ofSeconds(30);
    long seed = 1;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "gpus" -> sizes = Arrays.stream(kv[1].split(",")).mapToInt(Integer::parseInt).toArray();
        case "strategies" -> strategies = kv[1].split(",");
        case "decisions" -> decisions = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        case "limit" -> limit = Duration.parse(kv[1]);
        case "seed" -> seed = Long.parseLong(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg + " (gpus=, strategies=, decisions=, warmup=, limit=, seed=)");
      }
    }
    List<ServiceRequest> requests = requests();
    System.out.println("GPUs | held | strategy | decisions | wall p50 / p90 / p99 ms | CPU p50 / p90 / p99 ms | statuses | mean cost");
    for (int gpus : sizes) {
      Cluster cluster = cluster(gpus);
      ClusterState base = halfHeld(cluster, seed);
      for (String strategy : strategies) {
        SplittableRandom r = new SplittableRandom(seed + 7);
        warmUp(base, strategy, requests, warmup, limit, r);
        long[] wall = new long[decisions];
        long[] cpu = new long[decisions];
        Map<SolveStatus, Integer> statuses = new EnumMap<>(SolveStatus.class);
        double[] cost = new double[1];
        long[][] cpuByRequest = new long[requests.size()][(decisions + requests.size() - 1) / requests.size()];
        double[] evaluated = new double[requests.size()];
        for (int i = 0; i < decisions; i++) {
          ClusterState state = nextState(base, r, i);
          ServiceRequest request = requests.get(i % requests.size());
          long c0 = cpuNanos();
          long t0 = System.nanoTime();
          PlacementResult result = Rampa.on(state).strategy(strategy).importance(ImportanceModels.capability()).timeLimit(limit)
              .place(request);
          wall[i] = System.nanoTime() - t0;
          cpu[i] = cpuNanos() - c0;
          statuses.merge(result.status(), 1, Integer::sum);
          cost[0] += result.plan().map(Plan::cost).orElse(0.0);
          cpuByRequest[i % requests.size()][i / requests.size()] = cpu[i];
          evaluated[i % requests.size()] += result.statistics().getOrDefault("candidatesEvaluated", 0.0);
        }
        System.out.printf("%d | %d | %s | %d | %s | %s | %s | %.4f%n", cluster.gpus().size(), cluster.gpus().size() - base.capacity().count(),
            strategy, decisions, percentiles(wall), percentiles(cpu), statuses, cost[0] / decisions);
        for (int q = 0; q < requests.size(); q++) {
          int count = decisions / requests.size() + (q < decisions % requests.size() ? 1 : 0);
          System.out.printf("    %s: CPU p50 / p90 / p99 %s ms, %.1f candidates evaluated on average%n", requests.get(q).id(),
              percentiles(Arrays.copyOf(cpuByRequest[q], count)), evaluated[q] / Math.max(1, count));
        }
        System.out.flush();
      }
    }
  }

  /** Warm-up decisions, same shape as the timed ones. */
  private static void warmUp(ClusterState base, String strategy, List<ServiceRequest> requests, int n, Duration limit, SplittableRandom r) {
    for (int i = 0; i < n; i++) {
      Rampa.on(nextState(base, r, -1 - i)).strategy(strategy).importance(ImportanceModels.capability()).timeLimit(limit)
          .place(requests.get(i % requests.size()));
    }
  }

  /** The requests: 70B prefill, 13B prefill, 7B decode. */
  static List<ServiceRequest> requests() {
    return List.of(
        request("llama2-70b-prefill", ModelCatalog.prefill("llama2-70b", 512), 2, 2000),
        request("llama2-13b-prefill", ModelCatalog.prefill("llama2-13b", 512), 8, 800),
        request("llama2-7b-decode", ModelCatalog.decode("llama2-7b", 512), 20, 200));
  }

  private static ServiceRequest request(String id, org.rampa.domain.Model model, double rate, long latencyMs) {
    return ServiceRequest.builder().id(id).model(model).slo(Slo.of(rate, Duration.ofMillis(latencyMs), 1)).build();
  }

  /** 48: the small preset; otherwise gpus / 16 nodes of each of the four types, 4 GPUs each. */
  static Cluster cluster(int gpus) {
    if (gpus == 48) {
      return ClusterPresets.small();
    }
    if (gpus % 16 != 0) {
      throw new IllegalArgumentException("gpus = " + gpus + ": must be 48 or a multiple of 16 (4 types x 4 GPUs per node)");
    }
    int n = gpus / 16;
    return ClusterPresets.mixed(new int[] {n, n, n, n}, 4);
  }

  /** Each GPU held whole by its own background service with probability 1/2. */
  static ClusterState halfHeld(Cluster cluster, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Plan> holds = new ArrayList<>();
    for (Gpu g : cluster.gpus()) {
      if (r.nextBoolean()) {
        holds.add(RandomInstances.holdPlan("background-" + holds.size(), g.id()));
      }
    }
    return ClusterState.empty(cluster).allocateAll(holds);
  }

  /** The base state with one more free GPU held: a new state object, whose derived views are not built yet. */
  private static ClusterState nextState(ClusterState base, SplittableRandom r, int i) {
    List<Gpu> free = base.capacity().gpus();
    return base.allocate(RandomInstances.holdPlan("probe-" + i, free.get(r.nextInt(free.size())).id()));
  }

  private static String percentiles(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return String.format("%.3f / %.3f / %.3f", at(s, 0.5), at(s, 0.9), at(s, 0.99));
  }

  private static double at(long[] sorted, double q) {
    return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
  }

  /** The calling thread's CPU time, through java.management by reflection (the test sources need not read it). */
  private static long cpuNanos() {
    try {
      Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
      return (long) Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime").invoke(bean);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("thread CPU time is not available", e);
    }
  }
}

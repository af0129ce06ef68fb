package org.rampa.solver.moves;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.importance.StaticImportance;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.Mover;
import org.rampa.moves.MovesResult;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;

/**
 * Timed example (not a test): one admission decision with moves on a full 1000-GPU shared cluster,
 * for the greedy and the exact mover. The cluster is {@link FragmentedClusters#state} with no GPU
 * free: 250 nodes × 4 A100-SXM4-80GB, each shared by Llama-2-7B decode tenants on MPS shares until
 * at most a quarter of it is free, in a random maximal MIG layout with one instance held, or held
 * whole by a service that cannot be moved. The newcomer is a decode step whose latency
 * bound is {@code slack} × its time alone on a whole GPU (default 1.05), so it fits only after moves.
 * Placers (sharing on, static uniform importance): {@code greedy} for the greedy mover, {@code dp}
 * (which proves what it refuses) for the exact one, by default; {@code placers=greedy:dp} changes them.
 *
 * <pre>
 * java -cp (test classpath) org.rampa.solver.moves.MoveTiming movers=greedy,exact budget=2 decisions=20 warmup=3 seed=1 nodes=250 limit=30
 * </pre>
 *
 * With {@code fresh=1} every decision gets an equal state built anew (new ledger entries), so
 * nothing a re-timer memoizes per ledger entry carries over from the decision before.
 *
 * <p>Prints, per mover, p50 / p90 of the wall time and of the deciding thread's CPU time in ms, the
 * median CPU time spent inside the placer (each fit test is one placement of the newcomer), the
 * statuses, mean moves, mean price and states placed; {@code placements=1} prints each decision's
 * placements (CPU time, the GPUs of the state placed on, + where it found a plan).
 */
public final class MoveTiming {

  private MoveTiming() {}

  public static void main(String[] args) {
    Map<String, String> a = new TreeMap<>(Map.of("movers", "greedy,exact", "budget", "2", "decisions", "20", "warmup", "3", "seed", "1",
        "nodes", "250", "slack", "1.05", "placers", "greedy:greedy,exact:dp", "limit", "30"));
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      a.put(kv[0], kv[1]);
    }
    int nodes = Integer.parseInt(a.get("nodes"));
    long seed = Long.parseLong(a.get("seed"));
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", nodes), 4, ClusterPresets.NETWORK_100G);
    ClusterState state = FragmentedClusters.state(cluster, new SplittableRandom(seed), true);
    System.out.printf("cluster: %d GPUs, %d free, %d with a MIG layout, %d services; budget %s%n", cluster.gpus().size(),
        cluster.gpus().stream().filter(g -> state.isFree(g.id())).count(), state.migLayouts().size(), state.allocations().size(),
        a.get("budget"));
    int decisions = Integer.parseInt(a.get("decisions"));
    int warmup = Integer.parseInt(a.get("warmup"));
    double slack = Double.parseDouble(a.get("slack"));
    DecodeServices services = new DecodeServices(cluster, "newcomer");
    ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Map<String, String> placers = new TreeMap<>();
    for (String mp : a.get("placers").split(",")) {
      placers.put(mp.split(":")[0], mp.split(":")[1]);
    }
    for (String name : a.get("movers").split(",")) {
      Mover mover = name.equals("exact") ? new ExactMover() : new GreedyMover();
      String strategy = placers.getOrDefault(name, "dp");
      long[] wall = new long[decisions];
      long[] cpu = new long[decisions];
      long[] placerCpu = new long[decisions];
      Map<String, Integer> statuses = new TreeMap<>();
      double moves = 0;
      double price = 0;
      long placed = 0;
      for (int i = -warmup; i < decisions; i++) {
        int k = Math.floorMod(i, decisions);
        // fresh=1: an equal state built anew per decision, so nothing memoized per ledger entry carries over
        ClusterState at = a.containsKey("fresh") ? FragmentedClusters.state(cluster, new SplittableRandom(seed), true) : state;
        MoveProblem q = problem(at, services, strategy, "new-" + k, slack + 0.01 * (k % 5), Integer.parseInt(a.get("budget")), seed + k,
            Duration.ofSeconds(Long.parseLong(a.get("limit"))));
        long[] placing = {0};
        StringBuilder each = new StringBuilder();
        boolean listPlacements = a.containsKey("placements");
        MoveProblem p = new MoveProblem(q.state(), q.request(), (st, rq) -> {
          long t0 = bean.getCurrentThreadCpuTime();
          PlacementResult r = null;
          try {
            r = q.placer().place(st, rq);
            return r;
          } finally {
            long t = bean.getCurrentThreadCpuTime() - t0;
            placing[0] += t;
            // placements=1: each placement's CPU, the GPUs of its state and whether it found a plan (formatted only then: it is timed)
            if (listPlacements) {
              each.append(String.format(" %.2fms/%d%s", t / 1e6, st.cluster().gpus().size(), r != null && r.plan().isPresent() ? "+" : "-"));
            }
          }
        }, q.rules(), q.budget(), q.costs(), q.timeLimit());
        long c0 = bean.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        MovesResult r = mover.admit(p);
        long w = System.nanoTime() - w0;
        long c = bean.getCurrentThreadCpuTime() - c0;
        if (i < 0) {
          continue;
        }
        if (a.containsKey("verbose")) {
          System.out.println(r.status() + " " + r.moves() + " " + r.plan().map(Object::toString).orElse(r.reason()));
        }
        if (listPlacements) {
          System.out.println("placements (CPU/GPUs/plan):" + each);
        }
        wall[i] = w;
        cpu[i] = c;
        placerCpu[i] = placing[0];
        statuses.merge(r.status().name(), 1, Integer::sum);
        moves += r.moves().size();
        price += r.moveCost();
        placed += r.explored();
      }
      System.out.printf("%-6s (placer %s) wall p50 %s p90 %s ms | cpu p50 %s p90 %s ms, of it placing p50 %s | %s | mean moves %.2f, mean price %.2f, states placed %.1f%n", name, strategy,
          ms(wall, 0.5), ms(wall, 0.9), ms(cpu, 0.5), ms(cpu, 0.9), ms(placerCpu, 0.5), statuses, moves / decisions, price / decisions,
          (double) placed / decisions);
    }
  }

  private static MoveProblem problem(ClusterState state, DecodeServices services, String strategy, String id, double slack, int budget, long seed,
      Duration limit) {
    DecodeServices.Admission newcomer = services.service(id, state.cluster().gpus().get(0).id(), new Whole(), slack);
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(seed).timeLimit(limit).build());
    Rampa.Placer placer = Rampa.on(state).strategy(strategy).importance(StaticImportance.uniform()).options(options);
    return MoveProblem.of(placer, newcomer.request(), budget, MoveCosts.defaults());
  }

  private static String ms(long[] nanos, double q) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return String.format("%.2f", s[Math.min(s.length - 1, (int) Math.floor(q * s.length))] / 1e6);
  }
}

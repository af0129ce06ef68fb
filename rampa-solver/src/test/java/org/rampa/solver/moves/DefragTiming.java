package org.rampa.solver.moves;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.heuristics.moves.GreedyDefragmenter;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.Defragmenter;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveRules;
import org.rampa.testing.FragmentedClusters;

/**
 * Timed example (not a test): one defragmentation of a {@link FragmentedClusters#state} of
 * {@code nodes} × 4 A100-SXM4-80GB ({@code full=1}: no GPU free; {@code full=0}: fragmented, some
 * free), default prices, uniform demand, {@link MoveRules#defaults()}, per defragmenter and seed.
 *
 * <pre>
 * java -cp (test classpath) org.rampa.solver.moves.DefragTiming defragmenters=greedy seeds=1 nodes=250 full=1 budget=4 limit=120 verbose=1
 * java -cp (same) org.rampa.solver.moves.DefragTiming defragmenters=greedy,exact seeds=1-50 nodes=1 full=0 budget=3 limit=60
 * </pre>
 *
 * {@code exact-warm} is the exact one warm-started by greedy. With {@code defragmenters=greedy,exact}
 * (or {@code exact-warm}) it also prints on how many seeds greedy reached the
 * exact room, and the mean and largest gap.
 *
 * <p>Prints per run the wall time and the deciding thread's CPU time in ms, the room before and
 * after, the moves' price and count, the evaluations and the status; with {@code verbose=1} the moves.
 */
public final class DefragTiming {

  private DefragTiming() {}

  public static void main(String[] args) {
    Map<String, String> a = new TreeMap<>(Map.of("defragmenters", "greedy", "seeds", "1", "nodes", "250", "full", "1", "budget", "4",
        "limit", "120", "warmup", "0"));
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      a.put(kv[0], kv[1]);
    }
    int nodes = Integer.parseInt(a.get("nodes"));
    boolean full = a.get("full").equals("1");
    ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Map<String, Double> roomAfter = new TreeMap<>();
    int[] compared = {0, 0}; // seeds with both answers, of them greedy's room equal to exact's
    double[] gap = {0, 0}; // summed and largest exact room less greedy room
    List<Long> seeds = new ArrayList<>();
    for (String part : a.get("seeds").split(",")) {
      String[] range = part.split("-"); // 1-50: every seed from 1 to 50
      for (long k = Long.parseLong(range[0]); k <= Long.parseLong(range[range.length - 1]); k++) {
        seeds.add(k);
      }
    }
    for (long seed : seeds) {
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", nodes), 4, ClusterPresets.NETWORK_100G);
      ClusterState state = FragmentedClusters.state(cluster, new SplittableRandom(seed), full);
      DefragProblem p = new DefragProblem(state, MoveRules.defaults(), Integer.parseInt(a.get("budget")), MoveCosts.defaults(),
          ForecastRoom.uniform(), Duration.ofSeconds(Long.parseLong(a.get("limit"))));
      for (String name : a.get("defragmenters").split(",")) {
        Defragmenter d = switch (name) {
          case "exact" -> new ExactDefragmenter();
          case "exact-warm" -> new ExactDefragmenter(new GreedyDefragmenter());
          default -> new GreedyDefragmenter();
        };
        for (int i = 0; i < Integer.parseInt(a.get("warmup")); i++) {
          d.defragment(p);
        }
        long c0 = bean.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        DefragResult r = d.defragment(p);
        long w = System.nanoTime() - w0;
        long c = bean.getCurrentThreadCpuTime() - c0;
        System.out.printf("%s seed %d, %d GPUs (%s): wall %.0f ms, cpu %.0f ms | room %.4f -> %.4f | %d moves, price %.2f | evaluated %d | %s%n",
            name, seed, cluster.gpus().size(), full ? "full" : "fragmented", w / 1e6, c / 1e6, r.roomBefore(), r.roomAfter(), r.moves().size(),
            r.moveCost(), r.explored(), r.status());
        if (a.containsKey("verbose")) {
          System.out.println("  " + r.moves() + "\n  " + r.reason());
        }
        roomAfter.put(name, r.roomAfter());
      }
      String exact = roomAfter.containsKey("exact") ? "exact" : "exact-warm";
      if (roomAfter.containsKey(exact) && roomAfter.containsKey("greedy")) {
        double g = roomAfter.get(exact) - roomAfter.get("greedy");
        compared[0]++;
        compared[1] += g <= 1e-9 ? 1 : 0;
        gap[0] += g;
        gap[1] = Math.max(gap[1], g);
      }
      roomAfter.clear();
    }
    if (compared[0] > 0) {
      // exact less greedy: below 0 only where the time limit stopped the exact search (status FEASIBLE)
      System.out.printf("greedy reaches the exact room on %d of %d seeds; exact less greedy: mean %.4f, largest %.4f GPU share equivalents%n", compared[1],
          compared[0], gap[0] / compared[0], gap[1]);
    }
  }
}

package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.backend.LinearProgram.Term;

/**
 * The aggregated pattern programme of {@link PatternColocationPlanner}, as an LP (continuous
 * counts, for GLOP) or an integer programme (for SCIP): variables and rows in the order they are
 * created, each row's terms set as its variables are (a term set twice keeps the last coefficient).
 * Also what a plan's counts are in its variables ({@link #counts}, a start), and a solution's plan
 * ({@link #decode}).
 */
final class PatternProgram {
  final ColocationProblem problem;
  final ColocationSpace space;
  final List<ColocationColumn> extra;
  private final LinearProgram.Builder builder = new LinearProgram.Builder();
  private final List<RowDraft> rows = new ArrayList<>();
  /** The programme's count variables (the integer ones of the integer programme) by name. */
  final Map<String, Integer> byName = new HashMap<>();
  final LinearProgram program;

  /** A row whose terms are still being set. */
  private record RowDraft(String name, double lower, double upper, Map<Integer, Double> terms) {}

  static String layout(int k, int t) {
    return "layout_" + k + "_" + t;
  }

  static String instances(int k, int p, int i) {
    return "instances_" + k + "_" + p + "_" + i;
  }

  static String whole(int k, int i) {
    return "whole_" + k + "_" + i;
  }

  static String mps(int k, int c) {
    return "mps_" + k + "_" + c;
  }

  static String extra(int c) {
    return "extra_" + c;
  }

  static String staged(int c) {
    return "staged_" + c;
  }

  static String stageInstances(int k, int p, int c, int stage) {
    return "stageInstances_" + k + "_" + p + "_" + c + "_" + stage;
  }

  static String stageWhole(int k, int c, int stage) {
    return "stageWhole_" + k + "_" + c + "_" + stage;
  }

  PatternProgram(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra, boolean integer) {
    this.problem = problem;
    this.space = space;
    this.extra = extra;
    double inf = Double.POSITIVE_INFINITY;
    List<ColocationService> services = problem.services();
    int n = services.size();
    ColocationObjective objective = problem.objective();
    int[] cover = new int[n];
    int z = objective == ColocationObjective.MAX_SCALE ? builder.addContinuous("Z", 0, inf) : -1;
    for (int i = 0; i < n; i++) {
      ColocationService s = services.get(i);
      switch (objective) {
        case MIN_GPUS -> cover[i] = row("cover_" + i, s.rate(), inf);
        case MAX_SCALE -> {
          cover[i] = row("cover_" + i, 0, inf);
          set(cover[i], z, -s.rate());
        }
        case MAX_WEIGHTED_THROUGHPUT -> {
          int served = builder.addContinuous("served_" + i, 0, s.rate());
          cover[i] = row("cover_" + i, 0, inf);
          set(cover[i], served, -1);
          builder.setObjective(served, s.weight());
        }
      }
    }
    if (z >= 0) {
      builder.setObjective(z, 1);
    }
    boolean minimise = objective == ColocationObjective.MIN_GPUS;
    int[][] stageCover = stagedChoices(cover, integer);
    for (ColocationSpace.Pool pool : space.pools()) {
      int k = pool.index();
      int capacity = row("gpus_" + k, -inf, pool.pool().count());
      List<Integer> gpus = new ArrayList<>();
      int[] room = new int[pool.profiles().size()];
      for (int p = 0; p < room.length; p++) {
        room[p] = row("room_" + k + "_" + p, -inf, 0);
        for (int i = 0; i < n; i++) {
          if (pool.best()[p][i] != null) {
            int w = count(instances(k, p, i), integer);
            set(room[p], w, 1);
            set(cover[i], w, pool.best()[p][i].throughput());
          }
        }
      }
      for (int t = 0; t < pool.layouts().size(); t++) {
        int x = count(layout(k, t), integer);
        for (int p = 0; p < room.length; p++) {
          set(room[p], x, -pool.layouts().get(t).counts()[p]);
        }
        gpus.add(x);
      }
      for (int i = 0; i < n; i++) {
        if (pool.whole()[i] != null) {
          int x = count(whole(k, i), integer);
          set(cover[i], x, pool.whole()[i].throughput());
          gpus.add(x);
        }
      }
      stagedParts(pool, room, stageCover, gpus, integer);
      List<ColocationColumn> sets = pool.mpsColumns();
      for (int c = 0; c < sets.size(); c++) {
        gpus.add(column(mps(k, c), sets.get(c), cover, integer));
      }
      for (int c = 0; c < extra.size(); c++) {
        if (extra.get(c).pool() == k) {
          gpus.add(column(extra(c), extra.get(c), cover, integer));
        }
      }
      for (int x : gpus) {
        set(capacity, x, 1);
        if (minimise) {
          builder.setObjective(x, 1);
        }
      }
    }
    if (!minimise) {
      builder.maximise();
    }
    for (RowDraft r : rows) {
      List<Term> terms = new ArrayList<>();
      r.terms().forEach((v, c) -> terms.add(new Term(v, c)));
      builder.addRow(r.name(), r.lower(), r.upper(), terms);
    }
    program = builder.build();
  }

  /** A new row {@code lower <= ... <= upper}, its terms set later; returns its index. */
  private int row(String name, double lower, double upper) {
    rows.add(new RowDraft(name, lower, upper, new LinkedHashMap<>()));
    return rows.size() - 1;
  }

  /** Sets variable {@code variable}'s coefficient in row {@code row}. */
  private void set(int row, int variable, double coefficient) {
    rows.get(row).terms().put(variable, coefficient);
  }

  /**
   * Per staged choice c: a 0/1 variable (at most one choice per partition of a service), what it
   * serves (u_c, counted in the service's cover, at most its bound times the 0/1 variable) and per
   * stage a row "the stage's throughput ≥ u_c" (returned, [choice][stage]). The bound is the rate
   * where serving more than the rate cannot help (fewest GPUs, weighted throughput), else the
   * choice's capacity on the whole cluster, so no plan is cut off and the LP relaxation stays a
   * relaxation of the whole space.
   */
  private int[][] stagedChoices(int[] cover, boolean integer) {
    List<StagedChoices.Choice> choices = space.stagedChoices();
    int[][] stageCover = new int[choices.size()][];
    Map<String, Integer> onePerPartition = new HashMap<>();
    for (int c = 0; c < choices.size(); c++) {
      StagedChoices.Choice choice = choices.get(c);
      ColocationService s = problem.services().get(choice.service());
      int chosen = integer ? builder.addInteger(staged(c), 0, 1) : builder.addContinuous(staged(c), 0, 1);
      byName.put(staged(c), chosen);
      set(onePerPartition.computeIfAbsent(choice.service() + "_" + choice.partition(),
          key -> row("partition_" + key, Double.NEGATIVE_INFINITY, 1)), chosen, 1);
      int served = builder.addContinuous("stagedServed_" + c, 0, Double.POSITIVE_INFINITY);
      set(cover[choice.service()], served, 1);
      int link = row("stagedLink_" + c, Double.NEGATIVE_INFINITY, 0);
      set(link, served, 1);
      set(link, chosen, -(problem.objective() == ColocationObjective.MAX_SCALE ? choice.capacity() : s.rate()));
      stageCover[c] = new int[choice.stages()];
      for (int k = 0; k < choice.stages(); k++) {
        stageCover[c][k] = row("stageCover_" + c + "_" + k, 0, Double.POSITIVE_INFINITY);
        set(stageCover[c][k], served, -1);
      }
    }
    return stageCover;
  }

  /** The staged choices' instance counts on {@code pool}'s profiles (within {@code room}) and whole GPUs (added to {@code gpus}). */
  private void stagedParts(ColocationSpace.Pool pool, int[] room, int[][] stageCover, List<Integer> gpus, boolean integer) {
    int k = pool.index();
    List<StagedChoices.Choice> choices = space.stagedChoices();
    for (int c = 0; c < choices.size(); c++) {
      StagedChoices.Choice choice = choices.get(c);
      for (int st = 0; st < choice.stages(); st++) {
        for (int p = 0; p < room.length; p++) {
          SegmentOption o = choice.mig()[k][st][p];
          if (o != null) {
            int w = count(stageInstances(k, p, c, st), integer);
            set(room[p], w, 1);
            set(stageCover[c][st], w, o.throughput());
          }
        }
        SegmentOption o = choice.whole()[k][st];
        if (o != null) {
          int x = count(stageWhole(k, c, st), integer);
          set(stageCover[c][st], x, o.throughput());
          gpus.add(x);
        }
      }
    }
  }

  private int count(String name, boolean integer) {
    int x = integer ? builder.addInteger(name, 0, Double.POSITIVE_INFINITY) : builder.addContinuous(name, 0, Double.POSITIVE_INFINITY);
    byName.put(name, x);
    return x;
  }

  private int column(String name, ColocationColumn col, int[] cover, boolean integer) {
    int x = count(name, integer);
    for (int i = 0; i < cover.length; i++) {
      if (col.throughput()[i] != 0) {
        set(cover[i], x, col.throughput()[i]);
      }
    }
    return x;
  }

  private long value(double[] values, String name) {
    Integer x = byName.get(name);
    return x == null ? 0 : Math.round(values[x]);
  }

  /**
   * The plan of the solved integer model: per layout type as many GPUs as counted, their
   * instances of each profile handed out to the services in the counted numbers (the rest stay
   * empty, and a GPU left with none is not used); whole GPUs; MPS configurations.
   */
  ColocationPlan decode(double[] values) {
    List<GpuConfiguration> out = new ArrayList<>();
    for (ColocationSpace.Pool pool : space.pools()) {
      int k = pool.index();
      String type = pool.pool().type().name();
      List<List<Segment>> migGpus = new ArrayList<>();
      List<List<int[]>> slots = new ArrayList<>();
      pool.profiles().forEach(p -> slots.add(new ArrayList<>()));
      for (int t = 0; t < pool.layouts().size(); t++) {
        for (long j = value(values, layout(k, t)); j > 0; j--) {
          int g = migGpus.size();
          migGpus.add(new ArrayList<>());
          List<Placement> layout = pool.layouts().get(t).layout();
          for (Placement s : layout) {
            int p = pool.profileIndex(ColocationSpace.partName(s, layout.size()));
            if (p >= 0) {
              slots.get(p).add(new int[] {g, ColocationSpace.start(s)});
            }
          }
        }
      }
      List<StagedChoices.Choice> choices = space.stagedChoices();
      for (int p = 0; p < pool.profiles().size(); p++) {
        int next = 0;
        for (int i = 0; i < problem.services().size(); i++) {
          for (long j = value(values, instances(k, p, i)); j > 0; j--) {
            int[] slot = slots.get(p).get(next++);
            migGpus.get(slot[0]).add(pool.best()[p][i].at(slot[1]));
          }
        }
        // a staged choice not chosen may still hold instances (they serve nothing): they stay empty, as its segments would break the chosen caps
        for (int c = 0; c < choices.size(); c++) {
          for (int st = 0; st < choices.get(c).stages() && value(values, staged(c)) == 1; st++) {
            for (long j = value(values, stageInstances(k, p, c, st)); j > 0; j--) {
              int[] slot = slots.get(p).get(next++);
              migGpus.get(slot[0]).add(choices.get(c).mig()[k][st][p].at(slot[1]));
            }
          }
        }
      }
      migGpus.stream().filter(g -> !g.isEmpty()).forEach(g -> out.add(new GpuConfiguration(type, g)));
      for (int i = 0; i < problem.services().size(); i++) {
        for (long j = value(values, whole(k, i)); j > 0; j--) {
          out.add(new GpuConfiguration(type, List.of(pool.whole()[i].at(0))));
        }
      }
      for (int c = 0; c < choices.size(); c++) {
        for (int st = 0; st < choices.get(c).stages() && value(values, staged(c)) == 1; st++) {
          for (long j = value(values, stageWhole(k, c, st)); j > 0; j--) {
            out.add(new GpuConfiguration(type, List.of(choices.get(c).whole()[k][st].at(0))));
          }
        }
      }
      List<ColocationColumn> sets = pool.mpsColumns();
      for (int c = 0; c < sets.size(); c++) {
        for (long j = value(values, mps(k, c)); j > 0; j--) {
          out.add(sets.get(c).configuration(type));
        }
      }
      for (int c = 0; c < extra.size(); c++) {
        for (long j = extra.get(c).pool() == k ? value(values, extra(c)) : 0; j > 0; j--) {
          out.add(extra.get(c).configuration(type));
        }
      }
    }
    ColocationPlan unscaled = new ColocationPlan(out, 0);
    double scale = switch (problem.objective()) {
      case MIN_GPUS -> 1;
      case MAX_SCALE -> servedScale(problem, unscaled);
      case MAX_WEIGHTED_THROUGHPUT -> Math.min(1, servedScale(problem, unscaled));
    };
    return new ColocationPlan(out, scale);
  }

  /**
   * The integer model's values for a verified plan (variable name → count), so SCIP starts from it;
   * its MPS configurations that are not among the enumerated pairs and triples join {@code extra} as columns.
   * Empty when some GPU of the plan is not in the searched space (it then only does not start SCIP).
   */
  static Optional<Map<String, Integer>> counts(ColocationSpace space, ColocationPlan plan, List<ColocationColumn> extra) {
    if (plan.gpus().stream().flatMap(g -> g.segments().stream()).anyMatch(s -> s.stage() != null)) {
      return Optional.empty(); // a plan running pipeline stages: not mapped onto the staged choices
    }
    Map<String, Integer> out = new HashMap<>();
    for (GpuConfiguration gpu : plan.gpus()) {
      ColocationSpace.Pool pool = space.pools().stream().filter(p -> p.pool().type().name().equals(gpu.gpuType())).findFirst().orElseThrow();
      int k = pool.index();
      List<Segment> segs = gpu.segments();
      if (segs.size() == 1 && segs.get(0).placement() instanceof Whole) {
        int i = space.index(segs.get(0).service());
        if (pool.whole()[i] == null) {
          return Optional.empty();
        }
        out.merge(whole(k, i), 1, Integer::sum);
      } else if (segs.stream().anyMatch(s -> s.placement() instanceof MpsShare)) {
        ColocationColumn col = space.column(gpu);
        String name = null;
        List<ColocationColumn> sets = pool.mpsColumns();
        for (int c = 0; c < sets.size() && name == null; c++) {
          name = sets.get(c).key().equals(col.key()) ? mps(k, c) : null;
        }
        for (int c = 0; c < extra.size() && name == null; c++) {
          name = extra.get(c).key().equals(col.key()) ? extra(c) : null;
        }
        if (name == null) {
          extra.add(col);
          name = extra(extra.size() - 1);
        }
        out.merge(name, 1, Integer::sum);
      } else {
        int[] need = new int[pool.profiles().size()];
        for (Segment s : segs) {
          int p = pool.profileIndex(ColocationSpace.partName(s.placement(), segs.size()));
          int i = space.index(s.service());
          if (p < 0 || pool.best()[p][i] == null) {
            return Optional.empty();
          }
          need[p]++;
          out.merge(instances(k, p, i), 1, Integer::sum);
        }
        int type = -1;
        for (int t = 0; t < pool.layouts().size() && type < 0; t++) {
          boolean fits = true;
          for (int p = 0; p < need.length; p++) {
            fits &= pool.layouts().get(t).counts()[p] >= need[p];
          }
          type = fits ? t : -1;
        }
        if (type < 0) {
          return Optional.empty();
        }
        out.merge(layout(k, type), 1, Integer::sum);
      }
    }
    return Optional.of(out);
  }

  /** The largest Z with every service's throughput ≥ Z × rate, as the verifier computes throughput. */
  private static double servedScale(ColocationProblem problem, ColocationPlan plan) {
    Map<String, Double> t = ColocationVerifier.throughputs(problem, plan);
    return problem.services().stream().mapToDouble(s -> t.get(s.id()) / s.rate()).min().orElseThrow();
  }
}

package org.rampa.it.consumer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rampa.Rampa;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.ClusterStateHolder.CommitResult;
import org.rampa.domain.ClusterStateHolder.Outcome;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.solver.backend.OrToolsNatives;
import org.rampa.strategy.PlacementResult;

/**
 * What a scheduler does with RAMPA: describe its own cluster, then for each strategy place a
 * service, commit the plan, and release it. Exits non-zero (an exception) when anything fails, and
 * checks that it really ran on the path named by its argument.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    String path = args[0];
    boolean modular = path.equals("module-path");
    check(Main.class.getModule().isNamed() == modular, "this class's module " + Main.class.getModule() + " on the " + path);
    check(Rampa.class.getModule().isNamed() == modular, "rampa-api's module " + Rampa.class.getModule() + " on the " + path);
    check(!modular || "org.rampa.heuristics".equals(ImportanceModels.class.getModule().getName()),
        "rampa-heuristics' module " + ImportanceModels.class.getModule());

    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
    List<Gpu> gpus = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      gpus.add(Gpu.of("node-" + i / 4 + "/gpu-" + i % 4, a100.name(), "node-" + i / 4));
    }
    Link nvlink = Link.of("nvlink", 300e9, Duration.ofNanos(1_000));
    Cluster cluster = Cluster.builder().addGpuTypes(a100).addNodes(Node.of("node-0", nvlink), Node.of("node-1", nvlink))
        .addAllGpus(gpus).network(Link.of("ethernet-100G", 12.5e9, Duration.ofNanos(10_000))).build();
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(cluster));

    for (String strategy : List.of("greedy", "dp", "exact")) {
      ServiceRequest request = ServiceRequest.builder().id("chat-" + strategy).model(ModelCatalog.prefill("llama2-13b", 512))
          .slo(Slo.of(4.0, Duration.ofMillis(800), 1)).build();
      ClusterState state = holder.current();
      PlacementResult result = Rampa.on(state).strategy(strategy).importance(ImportanceModels.capability())
          .timeLimit(Duration.ofSeconds(30)).place(request);
      Plan plan = result.plan().orElseThrow(() -> new IllegalStateException(strategy + ": " + result.status() + ", " + result.reason()));
      CommitResult committed = holder.commit(plan, state.version());
      check(committed.outcome() == Outcome.COMMITTED && holder.current().holds(request.id()), strategy + " commit: " + committed);
      CommitResult released = holder.release(request.id(), holder.current().version());
      check(released.outcome() == Outcome.COMMITTED && !holder.current().holds(request.id()), strategy + " release: " + released);
      System.out.println("consumer on the " + path + ": " + strategy + " " + result.status() + ", "
          + plan.stages().size() + " stage(s), cost " + plan.cost() + "; committed and released");
    }
    OrToolsNatives.ensureLoaded(); // rampa-solver's API is readable from here too
    check(!modular || "org.rampa.solver".equals(OrToolsNatives.class.getModule().getName()),
        "rampa-solver's module " + OrToolsNatives.class.getModule());
    System.out.println("consumer on the " + path + ": OK");
  }

  private static void check(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("unexpected: " + what);
    }
  }
}

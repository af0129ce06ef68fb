package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.perf.TransferMode;

/**
 * The node-slot step of an {@link IntervalFlowFormulation}: nodes grouped into classes of identical
 * nodes, and per class the slots (concrete nodes that may host co-located stages) and, on nodes whose
 * intra link is slower than the network, the pools of GPUs network stages may share. Returned as a
 * {@link Layout}, from the {@link FreeGpus} of the step before.
 */
final class NodeSlots {

  /**
   * One node (the {@code ordinal}-th of its class) that may host a run of co-located stages; on a
   * slow node, any stage that sits wholly on it.
   */
  static final class Slot {
    final int index;
    final String node;
    final Link intraLink;
    /** The node's intra link is slower than the network at some cut. */
    final boolean slow;
    final int[] freePerType;
    /** group index -> free GPUs of that group on this node. */
    final Map<Integer, Integer> freePerGroup;
    /** per cut j: the transfer on the node's intra link. */
    final double[] intraSeconds;

    Slot(int index, String node, Link intraLink, boolean slow, int[] freePerType, Map<Integer, Integer> freePerGroup,
        double[] intraSeconds) {
      this.index = index;
      this.node = node;
      this.intraLink = intraLink;
      this.slow = slow;
      this.freePerType = freePerType;
      this.freePerGroup = freePerGroup;
      this.intraSeconds = intraSeconds;
    }
  }

  /**
   * Slow nodes whose GPUs network stages may use, only alongside GPUs elsewhere: one slot's node, or
   * the identical nodes of a slow class that got no slot ({@code index} in {@link Layout#slowNodes}).
   */
  static final class SlowNodes {
    final int index;
    final List<String> nodes;
    /** group index -> free GPUs of that group on each of the nodes. */
    final Map<Integer, Integer> freePerGroup;
    /** The slot on the (one) node, or null. */
    final Slot slot;

    SlowNodes(int index, List<String> nodes, Map<Integer, Integer> freePerGroup, Slot slot) {
      this.index = index;
      this.nodes = nodes;
      this.freePerGroup = freePerGroup;
      this.slot = slot;
    }
  }

  /**
   * The slots, the slow-node pools and the nodes of every slow class (no network stage sits wholly
   * on one of them); all empty for the optimistic charging.
   */
  record Layout(List<Slot> slots, List<SlowNodes> slowNodes, Set<String> slowNodeIds) {
    static final Layout NONE = new Layout(List.of(), List.of(), Set.of());
  }

  private NodeSlots() {}

  /**
   * Slots of {@code f} per class of identical nodes, from the free cost groups on each node. A class
   * faster than the network at some cut (and never slower) gets {@code maxStages / 2} slots, when
   * {@code fast}: runs of two or more stages. A class slower at some cut gets {@code maxStages}
   * slots, because every stage wholly on such a node is a slot stage there (network stages never sit
   * wholly on one), and its nodes' GPUs are open to network stages through {@link SlowNodes}.
   */
  static Layout build(FreeGpus f, Model m, boolean fast) {
    if (f.mode() == TransferMode.NONE || f.request().maxStages() < 2) {
      return Layout.NONE;
    }
    Map<String, List<Integer>> freeGroupsByNode = f.freeGroupsByNode();
    List<Slot> slots = new ArrayList<>();
    List<SlowNodes> slowNodes = new ArrayList<>();
    Set<String> slowNodeIds = new HashSet<>();
    Map<List<Object>, List<String>> classes = new LinkedHashMap<>();
    Map<String, List<String>> partGpus = partGpusByNode(f);
    for (Map.Entry<String, List<Integer>> e : freeGroupsByNode.entrySet()) {
      List<String> parts = partGpus.getOrDefault(e.getKey(), List.of());
      if (e.getValue().size() + parts.size() < 2) {
        continue;
      }
      List<Integer> signature = new ArrayList<>(e.getValue());
      Collections.sort(signature);
      Link link = f.cluster().node(e.getKey()).intraLink();
      // a node with partly used slots is a class of its own: its incumbents are its own
      classes.computeIfAbsent(parts.isEmpty() ? List.of(link, signature) : List.of(link, signature, parts), k -> new ArrayList<>())
          .add(e.getKey());
    }
    for (Map.Entry<String, List<String>> e : partGpus.entrySet()) {
      if (!freeGroupsByNode.containsKey(e.getKey()) && e.getValue().size() >= 2) {
        classes.computeIfAbsent(List.of(f.cluster().node(e.getKey()).intraLink(), List.of(), e.getValue()), k -> new ArrayList<>())
            .add(e.getKey());
      }
    }
    for (List<String> nodes : classes.values()) {
      Node first = f.cluster().node(nodes.get(0));
      double[] intra = new double[f.layers() + 1];
      boolean helps = false;
      boolean hurts = false;
      for (int j = 1; j < f.layers(); j++) {
        intra[j] = f.performance().transferSeconds(m, j, f.batch(), first.intraLink());
        helps |= intra[j] < f.networkSeconds()[j];
        hurts |= intra[j] > f.networkSeconds()[j];
      }
      if (!hurts && !(helps && fast)) {
        continue;
      }
      int[] perType = new int[f.types().size()];
      Map<Integer, Integer> perGroup = new LinkedHashMap<>();
      for (int g : freeGroupsByNode.getOrDefault(first.id(), List.of())) {
        perType[f.groups().get(g).type]++;
        perGroup.merge(g, 1, Integer::sum);
      }
      int count = Math.min(nodes.size(), hurts ? f.request().maxStages() : f.request().maxStages() / 2);
      for (int q = 0; q < count; q++) {
        Slot s = new Slot(slots.size(), nodes.get(q), first.intraLink(), hurts, perType, perGroup, intra.clone());
        slots.add(s);
        if (hurts) {
          slowNodes.add(new SlowNodes(slowNodes.size(), List.of(s.node), perGroup, s));
        }
      }
      if (hurts) {
        slowNodeIds.addAll(nodes);
        if (nodes.size() > count) {
          slowNodes.add(new SlowNodes(slowNodes.size(), List.copyOf(nodes.subList(count, nodes.size())), perGroup, null));
        }
      }
    }
    return new Layout(List.copyOf(slots), List.copyOf(slowNodes), Collections.unmodifiableSet(slowNodeIds));
  }

  /** Sharing: per node, the distinct GPUs of its partly used slots (none without sharing). */
  private static Map<String, List<String>> partGpusByNode(FreeGpus f) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (f.shared() != null) {
      for (SharedSlots.Part p : f.shared().parts) {
        List<String> gpus = out.computeIfAbsent(f.nodeOf(p.gpu), k -> new ArrayList<>());
        if (!gpus.contains(p.gpu)) {
          gpus.add(p.gpu);
        }
      }
    }
    return out;
  }
}

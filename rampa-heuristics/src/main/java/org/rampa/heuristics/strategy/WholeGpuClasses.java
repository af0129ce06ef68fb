package org.rampa.heuristics.strategy;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.domain.Capacity;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;

/**
 * The GPUs a new stage may take whole, as greedy orders them, without a unit per free GPU: when the
 * decision's costs price a GPU by its type alone ({@link org.rampa.importance.GpuCosts#ofType}),
 * every free GPU of a type costs the same and greedy's order within a type is by the node's free
 * GPUs of the type (more first when transfers matter, fewer otherwise), then the node's first
 * appearance, then cluster order. So the free GPUs fall into classes (type, free count of the node):
 * a few per type, each a list of nodes whose GPUs are interchangeable for greedy. They are counted
 * in one pass over the capacity's flags (primitive arrays), and a {@link FreeGpu} is made only for
 * the GPUs a candidate reaches, in that order: on 10 000 GPUs a decision reads a few hundred of them
 * instead of making, pricing and sorting every free one.
 *
 * <p>Each list holds exactly the units of one type of {@link PlacementContext#free()}, in the order
 * greedy's comparator sort of them gives, so decisions do not change; as no list of all units is
 * made, a unit's number is its cluster position.
 */
final class WholeGpuClasses {

  private final PlacementContext c;
  private final boolean transfersMatter;
  private final int types;
  /** Free GPUs by node position times the type count plus type position. */
  private final int[] freeOnNode;
  /** Per type position, the most free GPUs of the type on one node: its classes are the counts 1 to that. */
  private final int[] mostOnNode;
  /** Order of each node's first free GPU among all free GPUs (-1: none), as greedy's tie-break. */
  private final int[] orderOfNode;
  /** Nodes with free GPUs in that order. */
  private final int[] nodesInOrder;
  private final int nodeCount;
  private final int[] nodeOf;
  private final int[] typeOf;
  private final double[] costOfType;
  private final List<GpuType> freeTypes;

  private WholeGpuClasses(PlacementContext c, boolean transfersMatter, double[] costOfType, List<GpuType> freeTypes, int[] freeOnNode,
      int[] mostOnNode, int[] orderOfNode, int[] nodesInOrder, int nodeCount, int[] nodeOf, int[] typeOf) {
    this.c = c;
    this.transfersMatter = transfersMatter;
    this.types = costOfType.length;
    this.costOfType = costOfType;
    this.freeTypes = freeTypes;
    this.freeOnNode = freeOnNode;
    this.mostOnNode = mostOnNode;
    this.orderOfNode = orderOfNode;
    this.nodesInOrder = nodesInOrder;
    this.nodeCount = nodeCount;
    this.nodeOf = nodeOf;
    this.typeOf = typeOf;
  }

  /**
   * The classes of {@code c}'s free GPUs, or empty when a type with free GPUs has no cost of its
   * own (the costs vary within a type) or there are no free GPUs.
   */
  static Optional<WholeGpuClasses> of(PlacementContext c) {
    Capacity capacity = c.problem.state().capacity();
    List<GpuType> clusterTypes = c.cluster.gpuTypes();
    double[] costOfType = new double[clusterTypes.size()];
    for (int t = 0; t < costOfType.length; t++) {
      if (capacity.count(clusterTypes.get(t).name()) > 0) {
        OptionalDouble cost = c.costs.ofType(clusterTypes.get(t).name());
        if (cost.isEmpty()) {
          return Optional.empty();
        }
        costOfType[t] = cost.getAsDouble();
      }
    }
    if (capacity.count() == 0) {
      return Optional.empty();
    }
    int gpus = c.cluster.gpus().size();
    int nodes = c.cluster.nodes().size();
    int types = costOfType.length;
    int[] nodeOf = c.cluster.nodePositions();
    int[] typeOf = c.cluster.typePositions();
    int[] freeOnNode = new int[nodes * types];
    int[] mostOnNode = new int[types];
    int[] orderOfNode = new int[nodes];
    Arrays.fill(orderOfNode, -1);
    int[] nodesInOrder = new int[nodes];
    int nodeCount = 0;
    boolean[] typeSeen = new boolean[types];
    List<GpuType> freeTypes = new ArrayList<>(types);
    for (int i = 0; i < gpus; i++) {
      if (!capacity.containsAt(i)) {
        continue;
      }
      int node = nodeOf[i];
      int type = typeOf[i];
      if (orderOfNode[node] < 0) {
        orderOfNode[node] = nodeCount;
        nodesInOrder[nodeCount++] = node;
      }
      mostOnNode[type] = Math.max(mostOnNode[type], ++freeOnNode[node * types + type]);
      if (!typeSeen[type]) {
        typeSeen[type] = true;
        freeTypes.add(clusterTypes.get(type)); // shapes in order of their first free GPU, as greedy's map of shapes
      }
    }
    boolean transfersMatter = GreedyStrategy.transfersMatter(c, freeTypes);
    return Optional.of(new WholeGpuClasses(c, transfersMatter, costOfType, List.copyOf(freeTypes), freeOnNode, mostOnNode, orderOfNode,
        nodesInOrder, nodeCount, nodeOf, typeOf));
  }

  /** The types with free GPUs, in order of their first free GPU. */
  List<GpuType> types() {
    return freeTypes;
  }

  /**
   * Greedy's order of whole units: cost, then the node's free units of the unit's type (fewer
   * first, or more first when transfers matter), then the node's first appearance, then cluster order.
   */
  Comparator<FreeGpu> order() {
    return (a, b) -> {
      int by = Double.compare(a.cost(), b.cost());
      if (by == 0) {
        by = Integer.compare(rank(a.clusterIndex()), rank(b.clusterIndex()));
      }
      if (by == 0) {
        by = Integer.compare(orderOfNode[nodeOf[a.clusterIndex()]], orderOfNode[nodeOf[b.clusterIndex()]]);
      }
      return by != 0 ? by : Integer.compare(a.clusterIndex(), b.clusterIndex());
    };
  }

  private int rank(int clusterIndex) {
    int free = freeOnNode[nodeOf[clusterIndex] * types + typeOf[clusterIndex]];
    return transfersMatter ? -free : free;
  }

  /** The free GPUs of {@code type} in greedy's order; a {@link FreeGpu} is made when an element is first read. */
  List<FreeGpu> ordered(GpuType type) {
    int t = c.cluster.gpuTypes().indexOf(type);
    return new Ordered(type, t, c.problem.state().capacity().count(type.name()));
  }

  /**
   * The cost of the unit at {@code index} of {@code gpus}, one of {@link #ordered}'s lists or any
   * list of units, without making the unit: prefix sums of costs reach far past the units a
   * candidate that is evaluated takes.
   */
  static double costAt(List<FreeGpu> gpus, int index) {
    return gpus instanceof Ordered ordered ? ordered.cost : gpus.get(index).cost();
  }

  /**
   * One type's free GPUs, class after class (the nodes' free count of the type: most first when
   * transfers matter, fewest otherwise), within a class node after node in order of their first
   * free GPU, each node's GPUs of the type in cluster order. Read as far as asked: a class is one
   * walk over the nodes, which mostly ends long before the last.
   */
  private final class Ordered extends AbstractList<FreeGpu> {
    private final GpuType type;
    private final int typePosition;
    private final double cost;
    private final FreeGpu[] made;
    private int count;
    /** The class being read (a free count), the next node to look at for it, and the GPUs of the node being read. */
    private int freeCount;
    private int nodeIndex;
    private int[] onNode = new int[0];
    private int next;

    Ordered(GpuType type, int typePosition, int size) {
      this.type = type;
      this.typePosition = typePosition;
      this.cost = costOfType[typePosition];
      this.made = new FreeGpu[size];
      this.freeCount = transfersMatter ? mostOnNode[typePosition] : 1;
    }

    @Override
    public FreeGpu get(int index) {
      java.util.Objects.checkIndex(index, made.length);
      List<Gpu> gpus = c.cluster.gpus();
      Capacity capacity = c.problem.state().capacity();
      while (count <= index) {
        while (next == onNode.length) {
          onNode = c.cluster.gpuPositionsOn(nextNodeOfClass());
          next = 0;
        }
        int i = onNode[next++];
        if (typeOf[i] == typePosition && capacity.containsAt(i)) {
          // nobody holds any part of a GPU a new stage may take whole: all of its memory is free
          made[count++] = FreeGpu.whole(gpus.get(i), type, cost, i, type.memoryBytes(), i);
        }
      }
      return made[index];
    }

    /** The next node of the class being read, moving on to the next class when this one is done; only asked while GPUs are left. */
    private int nextNodeOfClass() {
      while (true) {
        while (nodeIndex < nodeCount) {
          int node = nodesInOrder[nodeIndex++];
          if (freeOnNode[node * types + typePosition] == freeCount) {
            return node;
          }
        }
        freeCount += transfersMatter ? -1 : 1;
        nodeIndex = 0;
      }
    }

    @Override
    public int size() {
      return made.length;
    }
  }
}

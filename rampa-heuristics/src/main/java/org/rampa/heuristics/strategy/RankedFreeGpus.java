package org.rampa.heuristics.strategy;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import org.rampa.domain.Capacity;
import org.rampa.domain.GpuType;

/**
 * The GPUs a new stage may take whole, in a baseline's rank order, each made when first read. A
 * baseline ranks by its GPU's type, then by cluster order; so its order is the types' classes (types
 * the rank cannot tell apart) in rank order, each class's free GPUs in cluster order. The baselines
 * mostly read the first few of the ranking: on 10 000 GPUs, making, pricing and sorting every free
 * GPU per decision was most of performance-first's time (issue 27); here a class is one walk over
 * the capacity's flags, stopped where reading stops.
 *
 * <p>Holds exactly the units of {@link PlacementContext#free()} in the order of a stable sort of them
 * by type rank; as that list is not made, a unit's number is its cluster position.
 */
final class RankedFreeGpus extends AbstractList<FreeGpu> {

  private final PlacementContext c;
  private final Capacity capacity;
  private final int[] typeOf;
  /** The class of each cluster type position, by rank; -1 for types without free GPUs. */
  private final int[] classOfType;
  /** The cost of every GPU of a type position, when the costs price by type alone; NaN otherwise. */
  private final double[] costOfType;
  private final FreeGpu[] made;
  private int count;
  private int readingClass;
  private int nextPosition;

  private RankedFreeGpus(PlacementContext c, Comparator<GpuType> rank) {
    this.c = c;
    this.capacity = c.problem.state().capacity();
    this.typeOf = c.cluster.typePositions();
    List<GpuType> types = c.cluster.gpuTypes();
    List<Integer> withFree = new ArrayList<>();
    for (int t = 0; t < types.size(); t++) {
      if (capacity.count(types.get(t).name()) > 0) {
        withFree.add(t);
      }
    }
    withFree.sort(Comparator.comparing(types::get, rank));
    classOfType = new int[types.size()];
    Arrays.fill(classOfType, -1);
    int cls = -1;
    for (int k = 0; k < withFree.size(); k++) {
      if (k == 0 || rank.compare(types.get(withFree.get(k - 1)), types.get(withFree.get(k))) != 0) {
        cls++;
      }
      classOfType[withFree.get(k)] = cls;
    }
    costOfType = new double[types.size()];
    for (int t = 0; t < types.size(); t++) {
      OptionalDouble cost = classOfType[t] < 0 ? OptionalDouble.empty() : c.costs.ofType(types.get(t).name());
      costOfType[t] = cost.isPresent() ? cost.getAsDouble() : Double.NaN;
    }
    made = new FreeGpu[capacity.count()];
  }

  /** {@code c}'s free GPUs ranked by {@code rank} on their types, then in cluster order. */
  static List<FreeGpu> of(PlacementContext c, Comparator<GpuType> rank) {
    return new RankedFreeGpus(c, rank);
  }

  @Override
  public FreeGpu get(int index) {
    Objects.checkIndex(index, made.length);
    while (count <= index) {
      if (nextPosition == typeOf.length) {
        readingClass++;
        nextPosition = 0;
      }
      int i = nextPosition++;
      int t = typeOf[i];
      if (classOfType[t] == readingClass && capacity.containsAt(i)) {
        GpuType type = c.cluster.gpuTypes().get(t);
        double cost = Double.isNaN(costOfType[t]) ? c.costs.ofGpu(c.cluster.gpus().get(i)) : costOfType[t];
        // nobody holds any part of a GPU a new stage may take whole: all of its memory is free
        made[count++] = FreeGpu.whole(c.cluster.gpus().get(i), type, cost, i, type.memoryBytes(), i);
      }
    }
    return made[index];
  }

  @Override
  public int size() {
    return made.length;
  }
}

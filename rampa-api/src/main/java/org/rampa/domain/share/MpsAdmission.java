package org.rampa.domain.share;

import java.util.List;
import java.util.Optional;
import org.rampa.domain.Invalid;

/**
 * The admission rule for contended sharing on one GPU (docs/SHARING.md section 1), as a pure function of
 * the GPU's placements: MPS shares and CU masks sum to at most {@code 1 + overcommit} of the
 * compute; at most the type's MPS client limit per GPU, and proportionally fewer per MIG instance;
 * reservations plus one context overhead per MPS process fit the card; MPS processes inside a MIG
 * instance fit the instance. Exclusive and isolated placements are not this rule's business (MIG
 * layouts are {@link MigLayout}'s).
 *
 * @param overcommit how far compute shares may sum past 1; 0 unless a user opts in
 */
public record MpsAdmission(double overcommit) {

  /** Floating sums of menu shares (ten times 0.1) must not be refused for rounding. */
  private static final double SUM_TOLERANCE = 1e-9;

  public MpsAdmission {
    Invalid.requireFiniteNonNegative("mpsAdmission.overcommit", overcommit);
  }

  /** No overcommit. */
  public static MpsAdmission strict() {
    return new MpsAdmission(0);
  }

  /** The first rule {@code placements} on one GPU of {@code gpu}'s type break, or empty. */
  public Optional<ShareViolation> check(GpuPartitioning gpu, List<Placement> placements) {
    double compute = 0;
    long memory = 0;
    int clients = 0;
    for (int i = 0; i < placements.size(); i++) {
      Placement p = placements.get(i);
      if (p instanceof MpsShare s) {
        if (!gpu.mps()) {
          return violation(ShareViolation.Rule.UNSUPPORTED, "placement " + i + ": " + gpu.gpuType() + " has no MPS");
        }
        compute += s.fraction();
        memory += reservedBytes(gpu, s);
        clients++;
      } else if (p instanceof CuMask c) {
        if (gpu.computeUnits() == 0) {
          return violation(ShareViolation.Rule.UNSUPPORTED, "placement " + i + ": " + gpu.gpuType() + " offers no CU masking");
        }
        compute += c.computeFraction(gpu);
        memory += reservedBytes(gpu, c);
      } else if (p instanceof MigSliceMps m) {
        Optional<ShareViolation> inside = checkInstance(gpu, i, m);
        if (inside.isPresent()) {
          return inside;
        }
      }
    }
    if (compute > 1 + overcommit + SUM_TOLERANCE) {
      return violation(ShareViolation.Rule.COMPUTE_SUM, "compute shares on one " + gpu.gpuType() + " sum to " + round(compute)
          + ", more than 1" + (overcommit > 0 ? " + overcommit " + overcommit : "") + "; shares: " + fractions(gpu, placements));
    }
    if (clients > gpu.mpsClientLimit()) {
      return violation(ShareViolation.Rule.CLIENT_LIMIT, clients + " MPS clients on one " + gpu.gpuType() + ", at most " + gpu.mpsClientLimit());
    }
    if (memory > gpu.memoryBytes()) {
      return violation(ShareViolation.Rule.CARD_MEMORY, "reservations plus " + gpu.mpsProcessOverheadBytes()
          + " bytes of context per MPS process need " + memory + " bytes, more than the card's " + gpu.memoryBytes() + " on " + gpu.gpuType());
    }
    return Optional.empty();
  }

  private static Optional<ShareViolation> checkInstance(GpuPartitioning gpu, int index, MigSliceMps m) {
    if (!gpu.mps()) {
      return violation(ShareViolation.Rule.UNSUPPORTED, "placement " + index + ": " + gpu.gpuType() + " has no MPS");
    }
    MigGeometry geometry = gpu.requireMig();
    MigProfile profile = geometry.profiles().stream().filter(p -> p.name().equals(m.profile())).findFirst().orElse(null);
    if (profile == null) {
      return violation(ShareViolation.Rule.MIG_PROFILE, "placement " + index + ": " + geometry.name() + " has no profile " + m.profile());
    }
    int fullSlices = geometry.profiles().stream().mapToInt(MigProfile::computeSlices).max().orElseThrow();
    int limit = gpu.mpsClientLimit() * profile.computeSlices() / fullSlices;
    if (m.processes() > limit) {
      return violation(ShareViolation.Rule.CLIENT_LIMIT, "placement " + index + ": " + m.processes() + " MPS processes in one "
          + profile.name() + " instance, at most " + limit + " (" + gpu.mpsClientLimit() + " per GPU, in proportion to "
          + profile.computeSlices() + " of " + fullSlices + " compute slices)");
    }
    long need = reservedBytes(gpu, m);
    if (need > profile.memoryBytes()) {
      return violation(ShareViolation.Rule.INSTANCE_MEMORY, "placement " + index + ": " + m.processes() + " processes of "
          + m.processMemoryBytes() + " bytes plus " + gpu.mpsProcessOverheadBytes() + " bytes of context each need " + need
          + " bytes, more than the " + profile.memoryBytes() + " of a " + profile.name() + " instance");
    }
    return Optional.empty();
  }

  /**
   * The memory this rule charges {@code p} on a GPU of {@code gpu}'s type: an MPS share its
   * reservation plus one MPS context; n MPS processes inside a MIG instance n × (process memory +
   * context), charged to the instance; a CU mask its reservation; nothing for the kinds whose part
   * is their memory (whole GPU, MIG slice, template). Plans report it (`rampa colocate`'s
   * {@code mpsReservedBytes}) from here, so what they show is what admission checks.
   */
  public static long reservedBytes(GpuPartitioning gpu, Placement p) {
    if (p instanceof MpsShare s) {
      return s.memoryBytes() + gpu.mpsProcessOverheadBytes();
    }
    if (p instanceof MigSliceMps m) {
      return m.processes() * (m.processMemoryBytes() + gpu.mpsProcessOverheadBytes());
    }
    if (p instanceof CuMask c) {
      return c.memoryBytes();
    }
    return 0;
  }

  private static List<Double> fractions(GpuPartitioning gpu, List<Placement> placements) {
    return placements.stream().filter(p -> p instanceof MpsShare || p instanceof CuMask).map(p -> round(p.computeFraction(gpu))).toList();
  }

  private static double round(double x) {
    return Math.round(x * 1e4) / 1e4;
  }

  private static Optional<ShareViolation> violation(ShareViolation.Rule rule, String message) {
    return Optional.of(new ShareViolation(rule, message));
  }
}

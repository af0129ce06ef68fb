package org.rampa.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Link;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the extender: {@code java -cp ... org.rampa.kubernetes.ExtenderMain --port 8888}. */
@Command(name = "rampa-extender", mixinStandardHelpOptions = true,
    description = "RAMPA scheduler extender for kube-scheduler: filter, prioritize, /healthz, /state, /metrics.")
public final class ExtenderMain implements Callable<Integer> {

  @Option(names = "--port", description = "port to listen on (default ${DEFAULT-VALUE})")
  int port = 8888;

  @Option(names = "--bind", description = "address to listen on (default ${DEFAULT-VALUE})")
  String bind = "0.0.0.0";

  @Option(names = "--threads", description = "request threads (default ${DEFAULT-VALUE})")
  int threads = 16;

  @Option(names = "--strategy", description = "strategy for services that name none (default ${DEFAULT-VALUE})")
  String strategy = "greedy";

  @Option(names = "--time-limit-ms", description = "planning time limit per service, at most 4000 (kube-scheduler's httpTimeout is 5 s by default; default ${DEFAULT-VALUE})")
  long timeLimitMs = 2000;

  @Option(names = "--reservation-ttl-s", description = "seconds a reservation waits for all its pods to bind (default ${DEFAULT-VALUE})")
  long ttlSeconds = 120;

  @Option(names = "--importance", description = "capability (spend the least capable GPUs first) or uniform (default ${DEFAULT-VALUE})")
  String importance = "capability";

  @Option(names = "--gpu-product", description = "map a nvidia.com/gpu.product value to a catalog type, e.g. NVIDIA-H100-NVL=H100-PCIe-80GB (repeatable)")
  Map<String, String> products = new LinkedHashMap<>();

  @Option(names = "--network-gbps", description = "inter-node network bandwidth in Gb/s per direction (default ${DEFAULT-VALUE})")
  double networkGbps = 100;

  @Option(names = "--no-watch", description = "do not watch an API server: nodes come only from kube-scheduler's requests (nodeCacheCapable: false) and GPUs used by pods RAMPA did not place are unknown")
  boolean noWatch;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ExtenderMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    ImportanceModel model = switch (importance) {
      case "capability" -> ImportanceModels.capability();
      case "uniform" -> StaticImportance.uniform();
      default -> null;
    };
    if (model == null) {
      System.err.println("rampa-extender: --importance = " + importance + ": must be capability or uniform");
      return 2;
    }
    GangScheduler scheduler;
    try {
      Link network = Link.of("network-" + networkGbps + "G", networkGbps / 8 * 1e9, ClusterPresets.NETWORK_100G.latency());
      scheduler = new GangScheduler(new GangScheduler.Config(strategy, Duration.ofMillis(timeLimitMs),
          Duration.ofSeconds(ttlSeconds), GpuProducts.standard().with(products), network, model, Clock.systemUTC()));
    } catch (IllegalArgumentException e) {
      System.err.println("rampa-extender: " + e.getMessage());
      return 2;
    }
    KubernetesClient client = noWatch ? null : new KubernetesClientBuilder().build();
    ClusterSource source = noWatch ? null : new Fabric8ClusterSource(client);
    if (source != null) {
      source.start(scheduler);
    }
    // expiry and event catch-up also run when kube-scheduler sends nothing
    ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor();
    maintenance.scheduleWithFixedDelay(scheduler::maintain, 1, 1, TimeUnit.SECONDS);
    ExtenderServer server = ExtenderServer.start(scheduler, new InetSocketAddress(bind, port), threads);
    System.out.println("rampa-extender listening on " + bind + ":" + server.port() + (noWatch ? " (no API-server watch)" : ""));
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      maintenance.shutdownNow();
      if (source != null) {
        source.close();
        client.close();
      }
      stop.countDown();
    }));
    stop.await();
    return 0;
  }
}

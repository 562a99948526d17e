package fsil.bench.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.data.io.NpyReader;
import fsil.data.io.NpyWriter;
import fsil.methods.ppca.PpcaFitAccess;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Java side of the fit comparison with the authors' numpy algorithm ({@code benchmarks/numpy/}): it writes the
 * power-law classes of {@code fsil.methods.ppca.PpcaFitBench} as {@code features.npy} / {@code labels.npy}, and
 * times fsil's fit of the same file in CPU time of the one fitting thread (the session runs its class fits on the
 * calling thread), so that the numpy script can time its fit of identical data, alternating with this one.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar fsil.bench.ppca.PpcaFitCpuTiming export DIR [classes=50 per_class=600 dim=640 alpha=1.0 seed=1]
 * java -cp benchmarks/target/benchmarks.jar fsil.bench.ppca.PpcaFitCpuTiming time DIR [q=20 solver=auto covariance=biased warmup=2 repeats=1]
 * </pre>
 *
 * {@code time} prints one line {@code fsil <solver> ms_cpu_per_class=... ms_wall_per_class=... classes=...} per
 * repeat, after {@code warmup} untimed fits of the whole file (JIT compilation), with the first class's three largest
 * eigenvalues (the numpy script prints its own: the two fits compute the same model).
 *
 * <p>It reads and writes the files with the data layer, so it lives in a package of the benchmarks' own, and reaches
 * ppca's package-private session through {@link PpcaFitAccess}.
 */
public final class PpcaFitCpuTiming {
    private PpcaFitCpuTiming() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: export|time DIR [key=value ...]");
        }
        Path dir = Path.of(args[1]);
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            o.put(kv[0], kv[1]);
        }
        switch (args[0]) {
            case "export" -> export(dir, o);
            case "time" -> time(dir, o);
            default -> throw new IllegalArgumentException("unknown mode " + args[0] + " (export or time)");
        }
    }

    private static void export(Path dir, Map<String, String> o) throws Exception {
        int classes = Integer.parseInt(o.getOrDefault("classes", "50"));
        int perClass = Integer.parseInt(o.getOrDefault("per_class", "600"));
        int dim = Integer.parseInt(o.getOrDefault("dim", "640"));
        double alpha = Double.parseDouble(o.getOrDefault("alpha", "1.0"));
        long seed = Long.parseLong(o.getOrDefault("seed", "1"));
        LabeledData data = PpcaFitAccess.powerLawClasses(classes, perClass, dim, alpha, seed);
        Files.createDirectories(dir);
        NpyWriter.writeFloat32(dir.resolve("features.npy"), data.features());
        NpyWriter.writeInt32(dir.resolve("labels.npy"), data.labels());
        System.out.printf(Locale.ROOT, "wrote %d classes x %d samples, d = %d, to %s%n", classes, perClass, dim, dir);
    }

    private static void time(Path dir, Map<String, String> o) {
        FeatureMatrix x = NpyReader.read(dir.resolve("features.npy")).toFeatureMatrix();
        int[] y = NpyReader.read(dir.resolve("labels.npy")).toLabels();
        LabeledData data = new LabeledData(x, y);
        int classes = (int) java.util.Arrays.stream(y).distinct().count();
        Map<String, String> params = Map.of("q", o.getOrDefault("q", "20"),
                "solver", o.getOrDefault("solver", "auto"),
                "covariance", o.getOrDefault("covariance", "biased"));
        int warmup = Integer.parseInt(o.getOrDefault("warmup", "2"));
        int repeats = Integer.parseInt(o.getOrDefault("repeats", "1"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int w = 0; w < warmup; w++) {
            PpcaFitAccess.fit(params, data);
        }
        for (int r = 0; r < repeats; r++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            PpcaFitAccess.Fitted s = PpcaFitAccess.fit(params, data);
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            long wall = System.nanoTime() - wall0;
            double[] top = s.firstClassVariances();
            System.out.printf(Locale.ROOT, "fsil %s ms_cpu_per_class=%.3f ms_wall_per_class=%.3f classes=%d "
                            + "first_class_top3=[%.6f %.6f %.6f] krylov_dim_mean=%.1f%n", params.get("solver"),
                    cpu / 1e6 / classes, wall / 1e6 / classes, classes, top[0], top[1], top[2],
                    s.krylovDimMean());
        }
    }
}

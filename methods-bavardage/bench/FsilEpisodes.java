import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.methods.bavardage.BavardageMethod;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * fsil's BAVARDAGE on the episodes of {@link ExportEpisodes}, one thread: reads the .npy files, builds the learner
 * (base statistics), solves every episode in order, prints the times and the accuracy and writes the predicted
 * query labels to OUT (int64 [E, Q]).
 *
 * <p>Usage: FsilEpisodes DIR OUT.npy WAYS SHOTS [param=value ...]  (BAVARDAGE parameters, e.g. preset=official)
 */
public class FsilEpisodes {
    public static void main(String[] a) throws Exception {
        long t0 = System.nanoTime();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Path dir = Path.of(a[0]);
        Path out = Path.of(a[1]);
        int ways = Integer.parseInt(a[2]);
        int shots = Integer.parseInt(a[3]);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 4; i < a.length; i++) {
            String[] kv = a[i].split("=", 2);
            params.put(kv[0], kv[1]);
        }
        Npy.Array base = Npy.read(dir.resolve("base.npy"));
        Npy.Array baseLabels = Npy.read(dir.resolve("base_labels.npy"));
        Npy.Array eps = Npy.read(dir.resolve("episodes.npy"));
        Npy.Array labels = Npy.read(dir.resolve("labels.npy"));
        int d = base.shape()[1];
        int[] bl = Arrays.stream(baseLabels.i64()).mapToInt(x -> (int) x).toArray();
        Background bg = new Background(new LabeledData(FeatureMatrix.wrap(base.shape()[0], d, base.f32()), bl),
                ClassTable.numbered(Arrays.stream(bl).max().orElse(0) + 1), "bench", 0, Optional.empty());
        long t1 = System.nanoTime();
        long c1 = mx.getCurrentThreadCpuTime();
        BavardageMethod m = new BavardageMethod();
        Learner learner = m.learner(m.params(params), bg);
        long t2 = System.nanoTime();
        long c2 = mx.getCurrentThreadCpuTime();
        int e = eps.shape()[0];
        int n = eps.shape()[1];
        int ns = ways * shots;
        int nq = n - ns;
        long[] pred = new long[e * nq];
        long correct = 0;
        long cHalf = 0;
        for (int i = 0; i < e; i++) {
            if (i == e / 2) {
                cHalf = mx.getCurrentThreadCpuTime();
            }
            int off = i * n * d;
            float[] sx = Arrays.copyOfRange(eps.f32(), off, off + ns * d);
            float[] qx = Arrays.copyOfRange(eps.f32(), off + ns * d, off + n * d);
            int[] sl = new int[ns];
            for (int j = 0; j < ns; j++) {
                sl[j] = (int) labels.i64()[i * n + j];
            }
            Episode ep = new Episode(new LabeledData(FeatureMatrix.wrap(ns, d, sx), sl), FeatureMatrix.wrap(nq, d, qx),
                    ways, shots, true);
            Prediction p = learner.solve(ep, i);
            int[] lab = p.labels();
            for (int j = 0; j < nq; j++) {
                pred[i * nq + j] = lab[j];
                correct += lab[j] == labels.i64()[i * n + ns + j] ? 1 : 0;
            }
        }
        long t3 = System.nanoTime();
        long c3 = mx.getCurrentThreadCpuTime();
        Npy.writeI64(out, pred, e, nq);
        System.out.printf("fsil: load %.3f s, learner %.3f s (cpu %.3f s), %d episodes %.3f s wall, %.3f s cpu "
                + "(%.3f ms cpu/episode, second half %.3f), method cpu (learner + episodes) %.3f s, accuracy %.4f%n",
                (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, (c2 - c1) * 1e-9, e, (t3 - t2) * 1e-9, (c3 - c2) * 1e-9,
                (c3 - c2) * 1e-6 / e, (c3 - cHalf) * 1e-6 / (e - e / 2), (c3 - c1) * 1e-9,
                correct / (double) (e * nq));
    }
}

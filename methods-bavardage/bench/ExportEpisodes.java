import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.eval.protocol.FewShotProtocol;
import fsil.eval.protocol.ProtocolPlan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the episodes `fsil run --protocol fewshot` draws (same order seed, same sampler) and the base classes the
 * methods see as .npy files, so that fsil and the reference script read identical data:
 * base.npy float32 [B, D] (rows grouped by class), base_labels.npy int64 [B], episodes.npy float32 [E, N, D]
 * (support shot-major: row s*K + k is shot s of the k-th class in sorted id order, then the queries in the
 * sampler's order), labels.npy int64 [E, N] (0..K-1).
 *
 * <p>Usage: ExportEpisodes DATASET BACKBONE(identity|pretrained-mlp) WAYS SHOTS QUERIES EPISODES OUT_DIR [ORDER_SEED]
 */
public class ExportEpisodes {
    public static void main(String[] a) throws Exception {
        String dataset = a[0];
        String backbone = a[1].equals("identity") ? "identity" : "pretrained-mlp";
        int ways = Integer.parseInt(a[2]);
        int shots = Integer.parseInt(a[3]);
        int queries = Integer.parseInt(a[4]);
        int episodes = Integer.parseInt(a[5]);
        Path out = Path.of(a[6]);
        long orderSeed = a.length > 7 ? Long.parseLong(a[7]) : 1993;
        Files.createDirectories(out);
        FeatureSet data = Datasets.load(dataset, backbone, 1, Datasets.defaultCacheDir());
        FewShotProtocol protocol = new FewShotProtocol();
        Params o = Params.resolve("fewshot", protocol.parameters(), Map.of("ways", "" + ways, "shots", "" + shots,
                "queries", "" + queries, "episodes", "" + episodes));
        ProtocolPlan plan = protocol.plan(data, o, orderSeed);
        Background bg = plan.background(0, Optional.empty());
        LabeledData base = bg.base();
        int d = base.dimension();
        Integer[] order = new Integer[base.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Integer.compare(base.labels()[x], base.labels()[y]));
        float[] bx = new float[base.size() * d];
        long[] bl = new long[base.size()];
        for (int i = 0; i < order.length; i++) {
            System.arraycopy(base.features().rawData(), order[i] * d, bx, i * d, d);
            bl[i] = base.labels()[order[i]];
        }
        Npy.writeF32(out.resolve("base.npy"), bx, base.size(), d);
        Npy.writeI64(out.resolve("base_labels.npy"), bl, base.size());
        int n = ways * shots + queries;
        float[] ex = new float[episodes * n * d];
        long[] el = new long[episodes * n];
        for (int e = 0; e < episodes; e++) {
            LabeledData[] sq = FewShotProtocol.sampleEpisode(plan, e);
            LabeledData s = sq[0];
            LabeledData q = sq[1];
            int[] classes = s.classes();
            int[] seen = new int[ways];
            int off = e * n;
            for (int i = 0; i < s.size(); i++) {
                int k = Arrays.binarySearch(classes, s.labels()[i]);
                int row = seen[k]++ * ways + k;
                System.arraycopy(s.features().rawData(), i * d, ex, (off + row) * d, d);
                el[off + row] = k;
            }
            for (int i = 0; i < q.size(); i++) {
                int row = ways * shots + i;
                System.arraycopy(q.features().rawData(), i * d, ex, (off + row) * d, d);
                el[off + row] = Arrays.binarySearch(classes, q.labels()[i]);
            }
        }
        Npy.writeF32(out.resolve("episodes.npy"), ex, episodes, n, d);
        Npy.writeI64(out.resolve("labels.npy"), el, episodes, n);
        System.out.printf("%s: %d base rows, %d episodes of %d rows, D = %d -> %s%n", dataset, base.size(), episodes, n,
                d, out);
    }
}

package fsil.methods.bavardage.experiments;

import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.core.random.RandomStreams;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.methods.bavardage.BavardageMethod;
import fsil.methods.bavardage.LabeledEpisode;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hyperparameter selection for a dataset WITHOUT validation classes (Fashion-MNIST: 5 base / 0 validation / 5
 * novel): the base classes are the only labelled data that are not test classes. S_w comes from the base classes'
 * TRAIN images (the backbone was trained on them); the validation episodes are drawn from the base classes' TEST
 * images, which neither the backbone nor S_w has seen. Novel classes are never touched.
 *
 *
 * <p>{@code fsil run --select} cannot do this: it selects on validation classes only, and with
 * {@code -o classes-from=base} the protocols give the method no base classes (BAVARDAGE needs them for S_w).
 *
 * <p>Arguments: dataset, shots, {@code balanced} or {@code dirichlet} (Dirichlet(2) query counts), queries per
 * episode, episodes, then {@code name=v1,v2,...} grid axes (the last varies fastest) and
 * {@code fixed=name:value,...} for parameters every grid point shares. It prints every grid point's accuracy
 * (% and 95% half-width) and the best. Compiled with the module's tests; run from the repository root:
 * <pre>
 * mvn -o -q -B package -Dmaven.test.skip=true          # app/target/lib (bin/fsil builds the same)
 * mvn -o -q -B -pl methods-bavardage -am test-compile   # this class
 * java -cp 'methods-bavardage/target/test-classes:methods-bavardage/target/classes:app/target/lib/*' \
 *     fsil.methods.bavardage.experiments.BaseClassValidation \
 *     fashion-mnist 1 balanced 75 500 t_vb=10,30,100 s_max=1,2,5 fixed=mixture:balanced
 * </pre>
 */
public class BaseClassValidation {
    public static void main(String[] a) {
        String dataset = a[0];
        int shots = Integer.parseInt(a[1]);
        boolean dirichlet = a[2].equals("dirichlet");
        int queries = Integer.parseInt(a[3]);
        int episodes = Integer.parseInt(a[4]);
        Map<String, List<String>> grid = new LinkedHashMap<>();
        Map<String, String> fixed = new LinkedHashMap<>();
        for (int i = 5; i < a.length; i++) {
            String[] kv = a[i].split("=", 2);
            if (kv[0].equals("fixed")) {
                for (String f : kv[1].split(",")) {
                    String[] p = f.split(":", 2);
                    fixed.put(p[0], p[1]);
                }
            } else if (grid.put(kv[0], List.of(kv[1].split(","))) != null) {
                throw new IllegalArgumentException("grid axis '" + kv[0] + "' given twice");
            }
        }
        FeatureSet data = Datasets.load(dataset, "pretrained-mlp", 1, Datasets.defaultCacheDir());
        int[] base = data.splits().base().clone();
        Arrays.sort(base);
        Background bg = new Background(rowsOf(data.train(), base), data.classes(), data.key() + "|base-train", 0,
                java.util.Optional.empty());
        LabeledData test = rowsOf(data.test(), base);
        int[][] byClass = new int[base.length][];
        for (int k = 0; k < base.length; k++) {
            final int c = base[k];
            byClass[k] = java.util.stream.IntStream.range(0, test.size()).filter(i -> test.labels()[i] == c).toArray();
        }
        List<LabeledEpisode> eps = new ArrayList<>();
        long seed = RandomStreams.derive(7, "base-validation:" + dataset);
        for (int e = 0; e < episodes; e++) {
            UniformRandomProvider rng = RandomStreams.child(seed, e);
            int ways = base.length;
            int[] counts = new int[ways];
            if (dirichlet) {
                double[] p = DirichletSampler.symmetric(rng, ways, 2.0).sample();
                int sum = 0;
                for (int k = 0; k < ways; k++) {
                    counts[k] = (int) Math.floor(p[k] * queries);
                    sum += counts[k];
                }
                for (int k = 0; sum < queries; k = (k + 1) % ways) { // spread the remainder
                    counts[k]++;
                    sum++;
                }
            } else {
                Arrays.fill(counts, queries / ways);
            }
            int[] support = new int[ways * shots];
            int[] query = new int[queries];
            int[] qLabel = new int[queries];
            int at = 0;
            for (int k = 0; k < ways; k++) {
                int[] rows = byClass[k].clone();
                int take = shots + counts[k];
                for (int i = 0; i < take; i++) {
                    int j = i + rng.nextInt(rows.length - i);
                    int t = rows[i];
                    rows[i] = rows[j];
                    rows[j] = t;
                }
                System.arraycopy(rows, 0, support, k * shots, shots);
                for (int i = 0; i < counts[k]; i++) {
                    query[at] = rows[shots + i];
                    qLabel[at++] = base[k];
                }
            }
            LabeledData s = test.select(support);
            LabeledData q = test.select(query);
            eps.add(new LabeledEpisode(s, q.features(), q.labels()));
        }
        BavardageMethod m = new BavardageMethod();
        Params p = m.params(fixed);
        long t0 = System.nanoTime();
        List<GridEvaluation.Point> points = GridEvaluation.evaluate(p, grid, bg, eps);
        System.out.printf("# %s base-class validation: %d-shot %s Q=%d, %d episodes, fixed %s, %.1f s%n", dataset, shots,
                a[2], queries, episodes, fixed, (System.nanoTime() - t0) * 1e-9);
        GridEvaluation.Point best = null;
        for (GridEvaluation.Point c : points) {
            System.out.printf("%s\t%.2f\t+- %.2f%n", c.values(), 100 * c.accuracy(), 100 * c.ci95());
            if (best == null || c.accuracy() > best.accuracy()) {
                best = c; // ties: the earliest grid point
            }
        }
        System.out.println("best\t" + best.values() + "\t" + String.format("%.2f", 100 * best.accuracy()));
    }

    private static LabeledData rowsOf(LabeledData d, int[] sortedClasses) {
        int[] rows = java.util.stream.IntStream.range(0, d.size())
                .filter(i -> Arrays.binarySearch(sortedClasses, d.labels()[i]) >= 0).toArray();
        return d.select(rows);
    }
}

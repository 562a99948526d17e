package fsil.methods.bavardage.experiments;

import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.core.random.RandomStreams;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.methods.bavardage.AutoTuning;
import fsil.methods.bavardage.BavardageConfig;
import fsil.methods.bavardage.BavardageMethod;
import fsil.methods.bavardage.LabeledEpisode;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Development experiment for the auto preset: the tuning landscape on base-class episodes (as AutoTuning draws
 * them) next to the landscape on NOVEL-class episodes (which the auto preset never sees), on the same scale-free
 * grid (tau = T_vb / precision, varsigma = s_max / gain), so that the tuning scheme can be judged. Novel episodes
 * are drawn from the novel classes' train rows (as the fewshot protocol does). The background is the base
 * classes' train + test rows (as the protocols give it), seed derive(0, "background") as a run with train seed 0.
 *
 * <p>Arguments: dataset, backbone ({@code identity} or {@code pretrained-mlp}), split ({@code auto},
 * {@code classes} or {@code rows}), mixture ({@code balanced} or {@code unbalanced}; the novel episodes use the same
 * allocation), novel episodes per shot, then optional {@code tau=...}, {@code varsigma=...} (comma-separated grids),
 * {@code pool=novel|validation} and {@code queries=N}. With 0 novel episodes it prints the learner times, the auto
 * choice on the default grid and where the named presets lie on the scale-free axes of the dataset. {@code fsil run}
 * cannot do this: it needs the auto preset's internal grid ({@link AutoTuning#choose}). Compiled with the module's
 * tests; run from the repository root:
 * <pre>
 * mvn -o -q -B package -Dmaven.test.skip=true          # app/target/lib (bin/fsil builds the same)
 * mvn -o -q -B -pl methods-bavardage -am test-compile   # this class
 * java -cp 'methods-bavardage/target/test-classes:methods-bavardage/target/classes:app/target/lib/*' \
 *     fsil.methods.bavardage.experiments.AutoTuningLandscape digits identity auto unbalanced 200 \
 *     tau=0.0625,0.25,1,4,16 varsigma=0.25,1,4 pool=novel queries=75
 * </pre>
 */
public class AutoTuningLandscape {
    public static void main(String[] a) {
        String dataset = a[0];
        String backbone = a[1].equals("identity") ? "identity" : "pretrained-mlp";
        AutoTuning.Split split = a[2].equals("auto") ? null : AutoTuning.Split.valueOf(a[2].toUpperCase());
        boolean balanced = a[3].equals("balanced");
        int novelEpisodes = Integer.parseInt(a[4]);
        double[] tau = AutoTuning.Options.defaults().tau();
        double[] vs = AutoTuning.Options.defaults().varsigma();
        String poolName = "novel";
        int queries = 75;
        for (int i = 5; i < a.length; i++) {
            String[] kv = a[i].split("=", 2);
            switch (kv[0]) {
                case "tau" -> tau = Arrays.stream(kv[1].split(",")).mapToDouble(Double::parseDouble).toArray();
                case "varsigma" -> vs = Arrays.stream(kv[1].split(",")).mapToDouble(Double::parseDouble).toArray();
                case "pool" -> poolName = kv[1];
                case "queries" -> queries = Integer.parseInt(kv[1]);
                default -> throw new IllegalArgumentException(a[i]);
            }
        }
        FeatureSet data = Datasets.load(dataset, backbone, 1, Datasets.defaultCacheDir());
        LabeledData all = GridEvaluation.concat(data.train(), data.test());
        int[] base = GridEvaluation.sorted(data.splits().base());
        Background bg = new Background(GridEvaluation.rowsOf(all, base), data.classes(), data.key() + "|base",
                RandomStreams.derive(0, "background"), Optional.empty());
        BavardageMethod m = new BavardageMethod();
        Params params = m.params(Map.of("mixture", balanced ? "balanced" : "unbalanced"));
        AutoTuning.Options o = AutoTuning.Options.defaults();
        AutoTuning.Options opts = new AutoTuning.Options(o.episodes(), o.ways(), o.queries(), o.shots(), tau, vs, split);
        // time of the default learner (auto) against the official one, cold (first call in this JVM) and warm
        long t0 = System.nanoTime();
        m.learner(params, bg);
        long t1 = System.nanoTime();
        m.learner(params, bg);
        long t2 = System.nanoTime();
        m.learner(params.withText("preset", "official").withText("mixture", "preset"), bg);
        long t3 = System.nanoTime();
        System.out.printf("# learner time: auto %.2f s (first call), %.2f s (second call); official %.2f s%n",
                (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, (t3 - t2) * 1e-9);
        AutoTuning.Choice c = AutoTuning.choose(params, bg, opts);
        System.out.printf("# %s %s: %d base classes, %d base rows; split %s, %d episodes %d-way, %.1f s%n", dataset,
                a[1], base.length, bg.base().size(), c.split(), c.episodes(), c.ways(), c.seconds());
        System.out.printf("# full scales: precision %.6g gain %.6g; chosen tau %s varsigma %s -> t_vb %.6g s_max %.6g"
                + " (tuning acc %.2f)%n", c.scales().precision(), c.scales().gain(), c.tau(), c.varsigma(),
                c.config().tVb(), c.config().sMax(), 100 * c.accuracy());

        for (String preset : new String[]{"official", "glyphs-balanced", "glyphs-unbalanced", "fashion-mnist-balanced",
                "fashion-mnist-unbalanced"}) {
            Params pp = m.params(Map.of("preset", preset));
            BavardageConfig pc = BavardageConfig.from(pp);
            System.out.printf("# preset %s: t_vb %g s_max %g = tau %.3g varsigma %.3g on this dataset%n", preset,
                    pc.tVb(), pc.sMax(), pc.tVb() / c.scales().precision(), pc.sMax() / c.scales().gain());
        }
        if (novelEpisodes == 0) {
            for (AutoTuning.Candidate t : c.candidates()) {
                System.out.printf("%g\t%g\t%.2f +- %.2f%s%n", t.tau(), t.varsigma(), 100 * t.accuracy(), 100 * t.ci95(),
                        t.tau() == c.tau() && t.varsigma() == c.varsigma() ? "\t<- chosen" : "");
            }
            return;
        }
        // novel episodes on the same scale-free grid, with the full statistics
        int[] pool = GridEvaluation.sorted(poolName.equals("validation") ? data.splits().validation()
                : data.splits().novel());
        LabeledData novel = GridEvaluation.rowsOf(data.train(), pool);
        Map<String, double[]> novelAcc = new LinkedHashMap<>();
        for (int shots : new int[]{1, 5}) {
            List<LabeledEpisode> eps = episodes(novel, pool, shots, queries, balanced, novelEpisodes);
            Map<String, List<String>> g = new LinkedHashMap<>();
            g.put("t_vb", Arrays.stream(tau).mapToObj(t -> Double.toString(t * c.scales().precision())).toList());
            g.put("s_max", Arrays.stream(vs).mapToObj(v -> Double.toString(v * c.scales().gain())).toList());
            novelAcc.put(shots + "-shot", GridEvaluation.evaluate(params, g, bg, eps).stream()
                    .mapToDouble(GridEvaluation.Point::accuracy).toArray());
            // reference points: official and the validated presets, on the same episodes
            Map<String, List<String>> presets = Map.of("preset", List.of("official",
                    balanced ? "glyphs-balanced" : "glyphs-unbalanced",
                    balanced ? "fashion-mnist-balanced" : "fashion-mnist-unbalanced"));
            for (GridEvaluation.Point pc : GridEvaluation.evaluate(params.withText("mixture", "preset"), presets, bg,
                    eps)) {
                System.out.printf("# %s %d-shot novel: preset %s %.2f +- %.2f%n", dataset, shots,
                        pc.values().get("preset"), 100 * pc.accuracy(), 100 * pc.ci95());
            }
        }
        System.out.println("tau\tvarsigma\tt_vb\ts_max\ttuning\tnovel1\tnovel5\tnovelmean");
        for (int i = 0; i < c.candidates().size(); i++) {
            AutoTuning.Candidate t = c.candidates().get(i);
            double n1 = novelAcc.get("1-shot")[i];
            double n5 = novelAcc.get("5-shot")[i];
            System.out.printf("%g\t%g\t%.4g\t%.4g\t%.2f\t%.2f\t%.2f\t%.2f%s%n", t.tau(), t.varsigma(),
                    t.tau() * c.scales().precision(), t.varsigma() * c.scales().gain(), 100 * t.accuracy(),
                    100 * n1, 100 * n5, 50 * (n1 + n5),
                    t.tau() == c.tau() && t.varsigma() == c.varsigma() ? "\t<- chosen" : "");
        }
    }

    static List<LabeledEpisode> episodes(LabeledData d, int[] classes, int shots, int queries, boolean balanced,
                                         int count) {
        int ways = Math.min(5, classes.length);
        int[][] byClass = new int[classes.length][];
        for (int k = 0; k < classes.length; k++) {
            final int c = classes[k];
            byClass[k] = IntStream.range(0, d.size()).filter(i -> d.labels()[i] == c).toArray();
        }
        List<LabeledEpisode> out = new ArrayList<>();
        long seed = RandomStreams.derive(11, "landscape-novel");
        for (int e = 0; e < count; e++) {
            UniformRandomProvider rng = RandomStreams.child(seed, e);
            int[] pick = RandomStreams.permutation(classes.length, rng);
            int minRows = Integer.MAX_VALUE;
            for (int k = 0; k < ways; k++) {
                minRows = Math.min(minRows, byClass[pick[k]].length);
            }
            int[] counts = new int[ways];
            if (balanced) {
                Arrays.fill(counts, queries / ways);
            } else {
                double[] p = DirichletSampler.symmetric(rng, ways, 2.0).sample();
                int sum = 0;
                for (int k = 0; k < ways; k++) {
                    counts[k] = (int) Math.floor(p[k] * queries);
                    sum += counts[k];
                }
                for (int k = 0; sum < queries; k = (k + 1) % ways) {
                    counts[k]++;
                    sum++;
                }
            }
            for (int k = 0; k < ways; k++) {
                counts[k] = Math.min(counts[k], byClass[pick[k]].length - shots);
            }
            int nq = Arrays.stream(counts).sum();
            int[] support = new int[ways * shots];
            int[] query = new int[nq];
            int at = 0;
            for (int k = 0; k < ways; k++) {
                int[] rows = byClass[pick[k]].clone();
                RandomStreams.shuffle(rows, rng);
                System.arraycopy(rows, 0, support, k * shots, shots);
                System.arraycopy(rows, shots, query, at, counts[k]);
                at += counts[k];
            }
            LabeledData s = d.select(support);
            LabeledData q = d.select(query);
            out.add(new LabeledEpisode(s, q.features(), q.labels()));
        }
        return out;
    }
}

package fsil.data.sets;

import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.SplitSet;
import fsil.data.io.AtomicFiles;
import fsil.data.io.LabeledTable;
import fsil.data.split.NumpyLegacyRandom;
import fsil.data.split.SplitFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Produces the committed split files of the built-in 10-class datasets. It was run once; the files are in
 * {@code eval/src/main/resources/fsil/splits/} and a test checks that they equal what this class generates, so the
 * rules below are the documentation of how the files were made:
 * <ul>
 *   <li>{@code order_1993.txt}: {@code np.random.seed(1993); np.random.permutation(n)} (UCIR/PyCIL), computed
 *       with {@link NumpyLegacyRandom}.</li>
 *   <li>{@code base.txt} / {@code novel.txt}: the first / second half of that order (listed ascending), so the
 *       backbone's base classes are also the classes of incremental step 0 (B-half protocol); no validation
 *       classes.</li>
 *   <li>{@code test_indices.txt} (digits only; Fashion-MNIST has its standard 60k/10k split): stratified 30% per
 *       class, {@link Partitions#stratifiedTestIndices} with seed {@value #SEED}.</li>
 *   <li>{@code fscil.txt}: the base classes, then one 1-way {@value #FSCIL_SHOTS}-shot session per novel class in
 *       class order; the shots of class c are the first {@value #FSCIL_SHOTS} of its training indices shuffled
 *       with stream {@code child(derive(1993, "fscil"), c)}, listed ascending.</li>
 * </ul>
 * Run: {@code java -cp ... fsil.data.sets.SplitGenerator eval/src/main/resources/fsil/splits digits}.
 */
public final class SplitGenerator {
    public static final long SEED = 1993;
    public static final int FSCIL_SHOTS = 5;

    private SplitGenerator() {
    }

    /** The generated files of one dataset: file name -> content. */
    public record Files(List<String> names, List<String> contents) {
    }

    /** Generates the digits files. */
    public static Files digits() {
        LabeledTable all = DigitsDataset.readAll();
        int[] test = Partitions.stratifiedTestIndices(all.labels(), 0.3, SEED);
        LabeledData train = Partitions.byTestIndices(all.data(), test, "digits").train();
        Files f = tenClass("digits", train.labels());
        List<String> names = new ArrayList<>(f.names());
        List<String> contents = new ArrayList<>(f.contents());
        names.add("test_indices.txt");
        contents.add(SplitFiles.formatInts("digits test set: indices (0-based, file order of digits.csv.gz) of a"
                + " stratified 30% per class,\nPartitions.stratifiedTestIndices(labels, 0.3, 1993); see"
                + " SplitGenerator.", test, 20));
        return new Files(names, contents);
    }

    /**
     * Order, base/novel and FSCIL files of a 10-class dataset (also used for Fashion-MNIST).
     *
     * @param trainLabels labels of the training set, in FeatureSet.train() order
     */
    public static Files tenClass(String dataset, int[] trainLabels) {
        int n = Arrays.stream(trainLabels).max().orElse(-1) + 1;
        int[] order = NumpyLegacyRandom.classOrder(n, SEED);
        int[] base = Arrays.stream(order, 0, n / 2).sorted().toArray();
        int[] novel = Arrays.stream(order, n / 2, n).sorted().toArray();
        List<int[]> sessions = new ArrayList<>();
        long fscilSeed = RandomStreams.derive(SEED, "fscil");
        for (int k = n / 2; k < n; k++) {
            int c = order[k];
            int[] idx = java.util.stream.IntStream.range(0, trainLabels.length).filter(i -> trainLabels[i] == c)
                    .toArray();
            RandomStreams.shuffle(idx, RandomStreams.child(fscilSeed, c));
            sessions.add(Arrays.stream(idx, 0, FSCIL_SHOTS).sorted().toArray());
        }
        String why = "see fsil.data.sets.SplitGenerator for how this file was produced";
        return new Files(List.of("order_1993.txt", "base.txt", "novel.txt", "fscil.txt"), List.of(
                SplitFiles.formatInts(dataset + " class order for order_seed 1993: np.random.seed(1993);"
                        + " np.random.permutation(" + n + ")\n" + why, order, n),
                SplitFiles.formatInts(dataset + " base classes: the first half of the order_seed-1993 class order\n"
                        + why, base, n),
                SplitFiles.formatInts(dataset + " novel classes: the second half of the order_seed-1993 class"
                        + " order\n" + why, novel, n),
                SplitFiles.formatFscil(dataset + " FSCIL sessions: base classes, then one 1-way " + FSCIL_SHOTS
                        + "-shot session per novel class\nin class order; session lines list indices into the"
                        + " training set.\n" + why, new SplitSet.FscilSplit(base, sessions))));
    }

    /** Writes the files of {@code dataset} into {@code root/<dataset>/}. */
    public static void write(Path root, String dataset, Files files) {
        for (int i = 0; i < files.names().size(); i++) {
            AtomicFiles.writeString(root.resolve(dataset).resolve(files.names().get(i)), files.contents().get(i));
        }
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : "eval/src/main/resources/fsil/splits");
        List<String> which = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : List.of("digits");
        for (String d : which) {
            switch (d) {
                case "digits" -> write(root, d, digits());
                case "fashion-mnist" -> write(root, d, tenClass(d, FashionMnistDataset.readTrainLabels()));
                default -> throw new IllegalArgumentException("no split generator for " + d);
            }
            System.out.println("wrote " + root.resolve(d));
        }
    }
}

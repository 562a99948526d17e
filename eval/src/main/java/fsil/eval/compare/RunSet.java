package fsil.eval.compare;

import fsil.api.FsilException;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stored units of one or more run directories, read for a comparison. A run is read, not locked: a finished run
 * can be compared while another process works elsewhere. Invalid rows refuse the comparison (a paired test needs
 * every task). When the same method label appears in several runs on the same dataset and setting (say ppca with
 * q=0 in one run and q=10 in another), each is named {@code <run directory>/<label>} so the two stay apart.
 */
public final class RunSet {
    private RunSet() {
    }

    public static List<UnitRecord> load(List<Path> dirs) {
        return load(dirs, false);
    }

    /**
     * With {@code pool}, the runs are parts of one experiment (e.g. the same spec with different order seeds): a
     * label is the same method in every run, and its units of all runs are paired together (a unit held twice, with
     * the same seeds, is refused).
     */
    public static List<UnitRecord> load(List<Path> dirs, boolean pool) {
        if (dirs.isEmpty()) {
            throw new FsilException("name at least one run directory to compare");
        }
        List<List<UnitRecord>> perRun = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (Path dir : dirs) {
            if (!seen.add(dir.toAbsolutePath().normalize())) {
                throw new FsilException("run directory " + dir + " is named twice");
            }
            RunDirectory.requireRun(dir);
            Path file = dir.resolve(UnitStore.FILE);
            if (!Files.isRegularFile(file)) {
                throw new FsilException(dir + " has no " + UnitStore.FILE + ": the run stored nothing yet");
            }
            UnitStore.Contents c = UnitStore.read(file);
            if (!c.invalid().isEmpty()) {
                throw new FsilException(dir + " holds " + c.invalid().size() + " invalid row(s) ("
                        + c.describeInvalid(3) + "); 'fsil run --resume " + dir + "' recomputes them");
            }
            perRun.add(c.rows());
        }
        if (pool) {
            Map<List<Object>, Integer> seen2 = new HashMap<>();
            List<UnitRecord> all = new ArrayList<>();
            for (int i = 0; i < perRun.size(); i++) {
                for (UnitRecord r : perRun.get(i)) {
                    Integer other = seen2.put(List.of(r.method(), r.dataset(), r.setting(), r.unit(), r.orderSeed(),
                            r.trainSeed()), i);
                    if (other != null) {
                        throw new FsilException(dirs.get(other) + " and " + dirs.get(i) + " both hold " + r.key()
                                + " with the same seeds: pooled runs must be different parts of one experiment "
                                + "(e.g. other order seeds)");
                    }
                    all.add(r);
                }
            }
            return all;
        }
        // (label, dataset, setting) -> the runs that hold it
        Map<List<String>, Set<Integer>> holders = new HashMap<>();
        for (int i = 0; i < perRun.size(); i++) {
            for (UnitRecord r : perRun.get(i)) {
                holders.computeIfAbsent(List.of(r.method(), r.dataset(), r.setting()), k -> new HashSet<>()).add(i);
            }
        }
        Set<String> clashing = new HashSet<>();
        holders.forEach((k, runs) -> {
            if (runs.size() > 1) {
                clashing.add(k.get(0));
            }
        });
        Set<String> names = new HashSet<>();
        boolean uniqueNames = dirs.stream().allMatch(d -> names.add(name(d)));
        List<UnitRecord> all = new ArrayList<>();
        for (int i = 0; i < perRun.size(); i++) {
            String prefix = (uniqueNames ? name(dirs.get(i)) : dirs.get(i).toString()) + "/";
            for (UnitRecord r : perRun.get(i)) {
                all.add(clashing.contains(r.method()) ? relabel(r, prefix + r.method()) : r);
            }
        }
        return all;
    }

    private static String name(Path dir) {
        Path f = dir.toAbsolutePath().normalize().getFileName();
        return f == null ? dir.toString() : f.toString();
    }

    private static UnitRecord relabel(UnitRecord r, String label) {
        return new UnitRecord(label, r.methodId(), r.dataset(), r.protocol(), r.setting(), r.unit(), r.firstTask(),
                r.tasks(), r.orderSeed(), r.trainSeed(), r.status(), r.error(), r.seconds(), r.metrics());
    }
}

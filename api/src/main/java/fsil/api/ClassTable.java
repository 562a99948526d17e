package fsil.api;

import java.util.List;

/**
 * Names and groups of a dataset's classes, indexed by class id. The group is e.g. the script ("alphabet") of a
 * glyph class; it is empty when the dataset has no grouping.
 */
public record ClassTable(List<String> names, List<String> groups) {

    public ClassTable {
        names = List.copyOf(names);
        groups = List.copyOf(groups);
        if (!groups.isEmpty() && groups.size() != names.size()) {
            throw new InvalidDataException("class table has " + names.size() + " names but " + groups.size() + " groups");
        }
    }

    /** Classes named "0", "1", ... */
    public static ClassTable numbered(int count) {
        return new ClassTable(java.util.stream.IntStream.range(0, count).mapToObj(Integer::toString).toList(), List.of());
    }

    public int size() {
        return names.size();
    }

    public String name(int classId) {
        return names.get(classId);
    }

    public String group(int classId) {
        return groups.isEmpty() ? "" : groups.get(classId);
    }
}

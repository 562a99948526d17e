package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads Weka ARFF files (optionally gzipped) with numeric attributes and one nominal class attribute: the
 * attribute named {@code class} if there is one, otherwise the last nominal attribute. Numeric attributes are
 * {@code numeric}, {@code real} or {@code integer}; other nominal attributes, strings, dates, relational
 * attributes, missing values ({@code ?}) and the sparse data format are rejected with a message naming the file
 * and line. Class ids follow the order of the nominal values in the header; declared values that no row uses are
 * dropped (so ids are 0..K-1 over the classes that have samples). Text must be UTF-8.
 */
public final class ArffReader {

    private ArffReader() {
    }

    public static LabeledTable read(Path file) {
        try (TextLines lines = TextLines.open(file)) {
            return read(file.toString(), lines);
        }
    }

    private record Attribute(String name, List<String> nominal) {
    }

    public static LabeledTable read(String source, InputStream stream) {
        try (TextLines lines = new TextLines(source, stream)) {
            return read(source, lines);
        }
    }

    private static LabeledTable read(String source, TextLines r) {
        List<Attribute> attrs = new ArrayList<>();
        String line;
        int lineNo = 0;
        boolean inData = false;
        int classAttr = -1;
        Map<String, Integer> classIds = new HashMap<>();
        CsvReader.FloatBuffer values = new CsvReader.FloatBuffer(source);
        List<Integer> labels = new ArrayList<>();
        boolean sawRelation = false;
        while ((line = r.next()) != null) {
            lineNo = r.lineNumber();
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("%")) {
                continue;
            }
            if (!inData) {
                String lower = t.toLowerCase(Locale.ROOT);
                if (lower.startsWith("@relation")) {
                    sawRelation = true;
                } else if (lower.startsWith("@attribute")) {
                    attrs.add(parseAttribute(t.substring("@attribute".length()).strip(), source, lineNo));
                } else if (lower.startsWith("@data")) {
                    inData = true;
                    classAttr = classAttribute(attrs, source);
                    List<String> names = attrs.get(classAttr).nominal();
                    for (int k = 0; k < names.size(); k++) {
                        if (classIds.put(names.get(k), k) != null) {
                            throw new InvalidDataException(source + ": class value '"
                                    + InputFiles.oneLine(names.get(k), 60) + "' is declared twice");
                        }
                    }
                    for (int a = 0; a < attrs.size(); a++) {
                        if (a != classAttr && attrs.get(a).nominal() != null) {
                            throw new InvalidDataException(source + ": attribute '"
                                    + InputFiles.oneLine(attrs.get(a).name(), 60) + "' is nominal; only numeric features and one nominal class are supported");
                        }
                    }
                } else {
                    throw new InvalidDataException(source + ": line " + lineNo + ": expected @relation, @attribute"
                            + " or @data, got '" + InputFiles.oneLine(t, 60) + "'" + (sawRelation ? "" : " (not an ARFF file?)"));
                }
                continue;
            }
            if (t.startsWith("{")) {
                throw new InvalidDataException(source + ": line " + lineNo + ": sparse ARFF rows are not supported");
            }
            String[] fields = CsvReader.split(t, ',');
            if (fields.length != attrs.size()) {
                throw new InvalidDataException(source + ": line " + lineNo + " has " + fields.length
                        + " values but the header declares " + attrs.size() + " attributes");
            }
            for (int a = 0; a < fields.length; a++) {
                String f = unquote(fields[a].strip());
                if (f.equals("?")) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '"
                            + InputFiles.oneLine(attrs.get(a).name(), 60) + "': missing values (?) are not supported; impute or drop the row");
                }
                if (a == classAttr) {
                    Integer id = classIds.get(f);
                    if (id == null) {
                        throw new InvalidDataException(source + ": line " + lineNo + ": class '"
                                + InputFiles.oneLine(f, 60) + "' is not one of the declared values "
                                + InputFiles.oneLine(attrs.get(a).nominal().toString()));
                    }
                    labels.add(id);
                    continue;
                }
                float v;
                try {
                    v = Float.parseFloat(f);
                } catch (NumberFormatException e) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '"
                            + InputFiles.oneLine(attrs.get(a).name(), 60) + "': '" + InputFiles.oneLine(f, 60)
                            + "' is not a number");
                }
                if (!Float.isFinite(v)) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '"
                            + InputFiles.oneLine(attrs.get(a).name(), 60) + "': value " + InputFiles.oneLine(f, 60)
                            + " is not finite; features must not contain NaN or Inf");
                }
                values.add(v);
            }
        }
        if (!inData) {
            throw new InvalidDataException(source + ": no @data section (truncated or not an ARFF file)");
        }
        if (labels.isEmpty()) {
            throw new InvalidDataException(source + ": the @data section has no rows");
        }
        int n = labels.size();
        int[] y = labels.stream().mapToInt(Integer::intValue).toArray();
        // keep the declared order but drop values no row uses, so the ids are 0..K-1 over classes with samples
        List<String> declared = attrs.get(classAttr).nominal();
        boolean[] used = new boolean[declared.size()];
        for (int v : y) {
            used[v] = true;
        }
        int[] compact = new int[declared.size()];
        List<String> names = new ArrayList<>();
        for (int k = 0; k < declared.size(); k++) {
            if (used[k]) {
                compact[k] = names.size();
                names.add(declared.get(k));
            }
        }
        for (int i = 0; i < n; i++) {
            y[i] = compact[y[i]];
        }
        return new LabeledTable(source, FeatureMatrix.wrap(n, attrs.size() - 1, values.toArray()), y, names);
    }

    private static int classAttribute(List<Attribute> attrs, String source) {
        int found = -1;
        for (int a = 0; a < attrs.size(); a++) {
            if (attrs.get(a).nominal() != null) {
                if (attrs.get(a).name().equalsIgnoreCase("class")) {
                    return a;
                }
                found = a;
            }
        }
        if (found < 0) {
            throw new InvalidDataException(source + ": no nominal class attribute (e.g. @attribute class {a,b,c})");
        }
        if (attrs.size() < 2) {
            throw new InvalidDataException(source + ": no numeric feature attributes");
        }
        return found;
    }

    private static Attribute parseAttribute(String rest, String source, int lineNo) {
        String name;
        String type;
        if (rest.startsWith("'") || rest.startsWith("\"")) {
            int end = rest.indexOf(rest.charAt(0), 1);
            if (end < 0) {
                throw new InvalidDataException(source + ": line " + lineNo + ": unterminated attribute name");
            }
            name = rest.substring(1, end);
            type = rest.substring(end + 1).strip();
        } else {
            String[] p = rest.split("\\s+", 2);
            if (p.length < 2) {
                throw new InvalidDataException(source + ": line " + lineNo + ": attribute '"
                        + InputFiles.oneLine(rest, 60) + "' has no type");
            }
            name = p[0];
            type = p[1].strip();
        }
        if (type.startsWith("{")) {
            if (!type.endsWith("}")) {
                throw new InvalidDataException(source + ": line " + lineNo + ": unterminated nominal value list");
            }
            List<String> vals = new ArrayList<>();
            for (String v : CsvReader.split(type.substring(1, type.length() - 1), ',')) {
                vals.add(unquote(v.strip()));
            }
            return new Attribute(name, vals);
        }
        String lt = type.toLowerCase(Locale.ROOT);
        if (lt.equals("numeric") || lt.equals("real") || lt.equals("integer")) {
            return new Attribute(name, null);
        }
        throw new InvalidDataException(source + ": line " + lineNo + ": attribute '" + InputFiles.oneLine(name, 60)
                + "' has type '" + InputFiles.oneLine(type, 60) + "'; only numeric/real/integer features and a nominal class are supported");
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.charAt(0) == '\'' && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }
}

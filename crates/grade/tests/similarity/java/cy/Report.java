import java.util.*;
import java.util.stream.*;

/* Report.java -- Cy Young. Marks summary with streams. */
public class Report {
    record Entry(String student, int value) {}

    private static final Map<String, Integer> FLOORS = new LinkedHashMap<>();
    static {
        FLOORS.put("HD", 85);
        FLOORS.put("DN", 75);
        FLOORS.put("CR", 65);
        FLOORS.put("PS", 50);
        FLOORS.put("FL", 0);
    }

    private static Optional<Entry> read(String raw) {
        String[] f = raw.strip().split("\\s+");
        if (f.length != 2 || !f[1].matches("\\d{1,3}")) {
            return Optional.empty();
        }
        int v = Integer.parseInt(f[1]);
        return v <= 100 ? Optional.of(new Entry(f[0], v)) : Optional.empty();
    }

    private static String gradeOf(int v) {
        return FLOORS.entrySet().stream()
                .filter(e -> v >= e.getValue())
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse("FL");
    }

    public static void main(String[] args) {
        List<String> lines = new Scanner(System.in).useDelimiter("\n").tokens()
                .filter(l -> !l.isBlank()).collect(Collectors.toList());
        List<Entry> entries = new ArrayList<>();
        for (String l : lines) {
            Optional<Entry> e = read(l);
            if (e.isPresent()) {
                entries.add(e.get());
            } else {
                System.err.println("ignored: " + l);
            }
        }
        if (entries.isEmpty()) {
            System.out.println("no marks");
            return;
        }
        IntSummaryStatistics stats = entries.stream().mapToInt(Entry::value).summaryStatistics();
        int[] sorted = entries.stream().mapToInt(Entry::value).sorted().toArray();
        int n = sorted.length;
        double median = (n & 1) == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        Entry top = entries.stream().max(Comparator.comparingInt(Entry::value)).get();
        Entry bottom = entries.stream().min(Comparator.comparingInt(Entry::value)).get();
        Map<String, Long> byGrade = entries.stream()
                .collect(Collectors.groupingBy(e -> gradeOf(e.value()), Collectors.counting()));
        System.out.println("students: " + stats.getCount());
        System.out.printf("average: %.2f%n", stats.getAverage());
        System.out.printf("median: %.1f%n", median);
        System.out.println("highest: " + top.student() + " " + top.value());
        System.out.println("lowest: " + bottom.student() + " " + bottom.value());
        FLOORS.keySet().forEach(g -> System.out.println(g + ": " + byGrade.getOrDefault(g, 0L)));
    }
}

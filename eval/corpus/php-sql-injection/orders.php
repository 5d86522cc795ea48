<?php
function orders_for_customer(PDO $db, string $customerId): array
{
    $sql = "SELECT id, total, placed_at FROM orders WHERE customer_id = " . $customerId;
    $rows = $db->query($sql);
    $out = [];
    foreach ($rows as $row) {
        $out[] = [
            'id' => (int) $row['id'],
            'total' => (float) $row['total'],
            'placedAt' => $row['placed_at'],
        ];
    }
    return $out;
}

$db = new PDO('sqlite:shop.db');
header('Content-Type: application/json');
echo json_encode(orders_for_customer($db, $_GET['customer'] ?? '0'));

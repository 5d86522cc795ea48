<?php
function render_comments(array $comments): string
{
    $html = '<ul class="comments">';
    foreach ($comments as $c) {
        $html .= '<li><b>' . $c['author'] . '</b>: ' . $c['body'] . '</li>';
    }
    return $html . '</ul>';
}

$db = new PDO('sqlite:blog.db');
$stmt = $db->prepare('SELECT author, body FROM comments WHERE post_id = ?');
$stmt->execute([(int) ($_GET['post'] ?? 0)]);
echo render_comments($stmt->fetchAll(PDO::FETCH_ASSOC));

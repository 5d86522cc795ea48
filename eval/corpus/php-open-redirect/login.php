<?php
session_start();

function check_login(string $user, string $password): bool
{
    $hash = getenv('ADMIN_PASSWORD_HASH') ?: '';
    return $user === 'admin' && password_verify($password, $hash);
}

if ($_SERVER['REQUEST_METHOD'] === 'POST' && check_login($_POST['user'] ?? '', $_POST['password'] ?? '')) {
    session_regenerate_id(true);
    $_SESSION['user'] = 'admin';
    header('Location: ' . ($_GET['next'] ?? '/'));
    exit;
}
http_response_code(401);
echo 'login failed';

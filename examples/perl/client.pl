#!/usr/bin/env perl
# A duskfall client in Perl 5 with core modules only (IO::Socket::INET, JSON::PP): plays one
# game of any variant with random legal actions over TCP, and reconnects with its token if the
# connection drops.
#
#   perl examples/perl/client.pl [HOST] [PORT] [NAME]
#
# Frames: an 8-byte unsigned big-endian length, then that many bytes of UTF-8 JSON.
# Protocol: docs/protocol.md. Exit status 0 when the game is over, 1 otherwise.
use strict;
use warnings;
use IO::Socket::INET;
use JSON::PP;

my ($host, $port, $name) = (@ARGV, '127.0.0.1', 8765, 'perl-example')[0 .. 2];
$host //= '127.0.0.1';
my $json = JSON::PP->new->utf8->canonical;
my %SEED_KEYS = (vote => 'VOTE', kill => 'KILL', don_check => 'DON_CHECK',
                 sheriff_check => 'SHERIFF_CHECK');
# werewolf and mafia spell the action in valid_actions: "type", then one key per field (the
# fields of the tables in docs/werewolf.md and docs/mafia.md; other keys are older spellings)
my @FIELDS = qw(potion target says run withdraw claim);

my $token = $ENV{DUSKFALL_SEAT_TOKEN};
my $last_seq;
my $over = 0;

sub pick { my ($list) = @_; return $list->[int(rand(@$list))]; }

sub send_message {
    my ($socket, $message) = @_;
    my $body = $json->encode($message);
    print {$socket} pack('Q>', length $body) . $body;
}

sub read_exactly {
    my ($socket, $size) = @_;
    my $data = '';
    while (length $data < $size) {
        my $read = sysread($socket, my $chunk, $size - length $data);
        return undef unless $read;
        $data .= $chunk;
    }
    return $data;
}

sub choose {
    my ($valid) = @_;
    if (exists $valid->{declaration}) {
        my $who = pick($valid->{nomination});
        return { type => 'DECLARATION',
                 declaration => [map { int(rand(7)) - 3 } 1 .. 10],
                 nomination_policy => ($who >= 0 ? { "$who" => 1.0 } : {}) };
    }
    if (exists $valid->{eliminate_all}) {
        return { type => 'ELIMINATE_ALL_VOTE', vote => (rand() < 0.5 ? JSON::PP::true : JSON::PP::false) };
    }
    if (!exists $valid->{type}) {
        for my $key (sort keys %SEED_KEYS) {
            return { type => $SEED_KEYS{$key}, target => pick($valid->{$key}) }
                if exists $valid->{$key};
        }
        die "unknown valid_actions\n";
    }
    my $type = ref $valid->{type} eq 'ARRAY' ? pick($valid->{type}) : $valid->{type};
    my %action = (type => $type);
    for my $field (@FIELDS) {
        next unless exists $valid->{$field};
        my $options = $valid->{$field};
        if (ref $options eq 'HASH') {    # options per value of a field chosen before
            my ($chosen) = grep { !ref $_ && exists $options->{$_} } values %action;
            $options = $options->{$chosen};
        }
        if (ref $options eq 'ARRAY') { $action{$field} = pick($options); }
        elsif (defined $options && $options eq 'text') { $action{$field} = 'I have nothing to hide.'; }
    }
    delete $action{target} if defined $action{potion} && $action{potion} eq 'PASS';
    return \%action;
}

sub play_once {
    my $socket = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp')
        or return 0;
    binmode $socket;
    $socket->autoflush(1);
    my %hello = (type => 'HELLO', name => $name);
    $hello{token} = $token if defined $token;
    $hello{last_seq} = $last_seq if defined $token && defined $last_seq;
    send_message($socket, \%hello);
    while (defined(my $head = read_exactly($socket, 8))) {
        my $size = unpack('Q>', $head);
        my $body = read_exactly($socket, $size);
        last unless defined $body;
        my $message = $json->decode($body);
        my $type = $message->{type};
        if ($type eq 'HELLO') {
            $token = $message->{token};
        } elsif ($type eq 'ACTION_REQUEST') {
            next unless %{ $message->{valid_actions} };    # a state update: not answered
            send_message($socket, { type => 'ACTION_RESPONSE', player_id => $message->{player_id},
                                    request_id => $message->{request_id},
                                    action => choose($message->{valid_actions}) });
        } elsif ($type eq 'GAME_EVENT') {
            $last_seq = $message->{seq} if defined $message->{seq};
            if ($message->{event} eq 'GAME_OVER') {
                $over = 1;
                print 'game over, winner: ', ($message->{winner} // 'nobody'), "\n";
            }
        } elsif ($type eq 'TIMEOUT' || $type eq 'FALLBACK') {
            print STDERR "request $message->{request_id}: $type\n";
        } elsif ($type eq 'ERROR') {
            print STDERR "error $message->{code}: ", ($message->{detail} // $message->{message}), "\n";
        }
    }
    close $socket;
    return 1;
}

for my $attempt (1 .. 6) {
    play_once();
    last if $over || !defined $token;
    select(undef, undef, undef, 0.2);    # the seat waits for us within the reconnect grace
}
exit($over ? 0 : 1);

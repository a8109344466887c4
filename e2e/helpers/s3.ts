import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * Starts a real s3rver on a free port with one empty bucket, and returns it with the environment a Stoa server
 * needs to keep its blobs there (`STOA_STORAGE_URL` and the rest).
 *
 * @example
 * const { s3, env } = await startS3Bucket(join(dir, 's3'), 'stoa', 'prod');
 */
export async function startS3Bucket(directory: string, bucket: string, prefix: string): Promise<{ s3: S3rver; env: Record<string, string> }> {
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
  return {
    s3,
    env: {
      STOA_STORAGE_URL: `s3://${bucket}/${prefix}`,
      STOA_S3_ENDPOINT: endpoint,
      STOA_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
  };
}
